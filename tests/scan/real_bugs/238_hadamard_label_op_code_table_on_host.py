# source: https://github.com/fastestimator/fastestimator/pull/827
# also: https://github.com/fastestimator/fastestimator/commit/962b50e90306e372ff3e0c57e0740100cdcce8f0
# kind: other
# bug: the ToHadamard / FromHadamard tensor ops built their Hadamard code table (and FromHadamard's zero baseline) from numpy in build() as CPU torch tensors stored on the op, while the network ran the ops on batches already on the GPU, so encoding CUDA class labels indexed a CPU table and decoding multiplied CUDA logits by a CPU matrix; the fix ("sending label to the correct device") moves the tables to cuda:0 when CUDA is available.
# split: test10
from typing import Any, Dict, List

import numpy as np
import torch
from scipy.linalg import hadamard


class TensorOp:
    def __init__(self, inputs, outputs, mode=None):
        self.inputs = inputs
        self.outputs = outputs
        self.mode = mode

    def build(self, framework: str) -> None:
        pass

    def forward(self, data, state):
        raise NotImplementedError


class ToHadamard(TensorOp):
    def __init__(self, inputs, outputs, n_classes, code_length=None, mode=None):
        super().__init__(inputs, outputs, mode)
        self.n_classes = n_classes
        self.code_length = code_length or 1 << (n_classes - 1).bit_length()
        self.labels = None

    def build(self, framework: str) -> None:
        codes = hadamard(self.code_length).astype(np.float32)
        codes[np.arange(0, self.code_length, 2), 0] = -1
        self.labels = torch.from_numpy(codes[: self.n_classes])  # bug: other

    def forward(self, data: List[torch.Tensor], state: Dict[str, Any]) -> List[torch.Tensor]:
        return [self.labels[y.squeeze().long()] for y in data]


class FromHadamard(TensorOp):
    def __init__(self, inputs, outputs, n_classes, code_length=None, mode=None):
        super().__init__(inputs, outputs, mode)
        self.n_classes = n_classes
        self.code_length = code_length or 1 << (n_classes - 1).bit_length()
        self.labels = None
        self.baseline = None

    def build(self, framework: str) -> None:
        codes = hadamard(self.code_length).astype(np.float32)
        codes[np.arange(0, self.code_length, 2), 0] = -1
        self.labels = torch.from_numpy(codes[: self.n_classes]).T
        self.baseline = torch.tensor(0.0)

    def forward(self, data: List[torch.Tensor], state: Dict[str, Any]) -> List[torch.Tensor]:
        out = []
        for logits in data:
            x = torch.maximum(logits @ self.labels, self.baseline) + 1e-6
            out.append(x / x.sum(dim=1, keepdim=True))
        return out


class Network:
    def __init__(self, model, ops, device="cuda"):
        self.device = device
        self.model = model.to(device)
        self.ops = ops
        for op in ops:
            op.build("torch")

    def run_step(self, batch):
        batch = {k: v.to(self.device) for k, v in batch.items()}
        state = {}
        batch["y_code"] = self.ops[0].forward([batch["y"]], state)[0]
        batch["y_pred_code"] = self.model(batch["x"])
        batch["y_pred"] = self.ops[1].forward([batch["y_pred_code"]], state)[0]
        return batch
