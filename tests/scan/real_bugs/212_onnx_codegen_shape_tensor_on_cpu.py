# source: https://github.com/fumihwh/onnx-pytorch/issues/28
# also: https://github.com/fumihwh/onnx-pytorch/pull/29
# kind: tensor_no_device_in_forward
# bug: the ONNX-to-PyTorch code generator emitted `torch.tensor(x.shape)` for every Shape node in the generated model's forward, so on a CUDA model the shape tensor was a CPU tensor that later met CUDA activations (Gather/Concat/Reshape arithmetic) and failed; the fix (PR #29) emits `torch.tensor(x.shape, device=x.device)`.
# split: test9
import torch
import torch.nn as nn
import torch.nn.functional as F


class GeneratedModel(nn.Module):
    """Shape of a module written out by the converter for a small BiT-style head."""

    def __init__(self):
        super().__init__()
        self._vars = nn.ParameterDict()
        self.n_Conv_0 = nn.Conv2d(3, 32, kernel_size=3, stride=2, padding=1)
        self.n_Conv_1 = nn.Conv2d(32, 64, kernel_size=3, stride=2, padding=1)
        self._vars["t_fc_w"] = nn.Parameter(torch.randn(10, 64))
        self._vars["t_fc_b"] = nn.Parameter(torch.zeros(10))

    def forward(self, *inputs):
        t_input, = inputs
        t_10 = F.relu(self.n_Conv_0(t_input))
        t_11 = F.relu(self.n_Conv_1(t_10))
        t_12 = torch.tensor(t_11.shape)  # bug: tensor_no_device_in_forward
        t_13 = torch.index_select(t_12, 0, torch.tensor([0, 1], device=t_11.device))
        t_14 = torch.mean(t_11, dim=(2, 3))
        t_15 = torch.reshape(t_14, tuple(t_13.tolist()))
        t_17 = F.linear(t_15, self._vars["t_fc_w"], self._vars["t_fc_b"])
        return t_17


if __name__ == "__main__":
    model = GeneratedModel().cuda().eval()
    with torch.no_grad():
        out = model(torch.randn(2, 3, 64, 64, device="cuda"))
    print(out.shape)
