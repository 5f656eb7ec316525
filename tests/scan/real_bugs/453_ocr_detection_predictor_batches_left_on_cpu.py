# source: https://github.com/mindee/doctr/pull/808
# kind: inputs_not_moved
# bug: the detection/recognition predictor modules fed the pre-processor's batches (always built on the CPU) straight into the wrapped model, so after `predictor.cuda()` inference failed with "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor)"; the fix moves each batch to the device of the model's parameters.
# split: test21
from typing import Any, List, Union

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class PagePreProcessor(nn.Module):
    def __init__(self, output_size=(256, 256), batch_size=2):
        super().__init__()
        self.output_size = output_size
        self.batch_size = batch_size

    def forward(self, pages):
        tensors = []
        for page in pages:
            t = torch.as_tensor(page).permute(2, 0, 1).float() / 255.0
            tensors.append(F.interpolate(t[None], size=self.output_size, mode="bilinear", align_corners=False)[0])
        return [torch.stack(tensors[i:i + self.batch_size]) for i in range(0, len(tensors), self.batch_size)]


class TinyTextDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1))

    def forward(self, x, return_preds=False):
        prob = torch.sigmoid(self.body(x))
        out = {"out_map": prob}
        if return_preds:
            out["preds"] = [(p[0] > 0.5).cpu().numpy() for p in prob]
        return out


class DetectionPredictor(nn.Module):
    def __init__(self, pre_processor: PagePreProcessor, model: nn.Module) -> None:
        super().__init__()
        self.pre_processor = pre_processor
        self.model = model.eval()

    @torch.no_grad()
    def forward(self, pages: List[Union[np.ndarray, torch.Tensor]], **kwargs: Any) -> List[np.ndarray]:
        if any(page.ndim != 3 for page in pages):
            raise ValueError("incorrect input shape: all pages are expected to be multi-channel 2D images.")
        processed_batches = self.pre_processor(pages)
        predicted_batches = [
            self.model(batch, return_preds=True, **kwargs)["preds"]  # bug: inputs_not_moved
            for batch in processed_batches
        ]
        return [pred for batch in predicted_batches for pred in batch]


if __name__ == "__main__":
    predictor = DetectionPredictor(PagePreProcessor(), TinyTextDetector())
    if torch.cuda.is_available():
        predictor = predictor.cuda()
    pages = [np.random.randint(0, 255, (600, 400, 3), dtype=np.uint8) for _ in range(3)]
    maps = predictor(pages)
    print(len(maps), maps[0].shape)
