# source: https://github.com/Deci-AI/super-gradients/pull/844
# also: https://github.com/Deci-AI/super-gradients/commit/7691d8777f6dbceb6fac1cfe61d90d7e9c3e5977
# kind: hardcoded_cpu
# bug: the prediction pipeline's `device` argument defaulted to "cpu" and `model.predict()` built the pipeline without passing one, so the pipeline moved a CUDA model back to the CPU and every prediction ran there; the merged fix defaults to None and falls back to the device of the model's parameters.
# split: test16
from typing import List, Optional

import torch
import torch.nn as nn


class DetectionPipeline:
    def __init__(self, model: nn.Module, class_names: List[str], device: Optional[str] = "cpu"):  # bug: hardcoded_cpu
        self.model = model.to(device)
        self.device = device
        self.class_names = class_names

    @torch.no_grad()
    def __call__(self, images):
        self.model.eval()
        batch = torch.stack([torch.as_tensor(img, dtype=torch.float32) / 255.0 for img in images]).to(self.device)
        logits = self.model(batch)
        scores, labels = logits.softmax(-1).max(-1)
        return [(self.class_names[int(l)], float(s)) for s, l in zip(scores.cpu(), labels.cpu())]


class TinyDetector(nn.Module):
    def __init__(self, num_classes=80):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.cls = nn.Linear(16, num_classes)
        self.class_names = [f"class_{i}" for i in range(num_classes)]

    def forward(self, x):
        return self.cls(self.backbone(x))

    def predict(self, images):
        pipeline = DetectionPipeline(model=self, class_names=self.class_names)
        return pipeline(images)


if __name__ == "__main__":
    model = TinyDetector().to("cuda")
    frames = [torch.randint(0, 255, (3, 320, 320)) for _ in range(8)]
    print(model.predict(frames)[:2])
