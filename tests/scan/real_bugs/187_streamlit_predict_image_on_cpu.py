# source: https://github.com/zzsza/Boostcamp-AI-Tech-Product-Serving/pull/75
# also: https://github.com/zzsza/Boostcamp-AI-Tech-Product-Serving/commit/455277b835fae1b257015dc35d4c2c08781d2137
# kind: inputs_not_moved
# bug: the serving demo loaded the classifier with .to(device) (cuda when available), but get_prediction passed the freshly transformed image tensor to the model without moving it, so prediction crashed on a GPU host; the fix moves the transformed tensor to the same device.
# split: test7
import io
from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image
from torchvision import models, transforms


class MaskClassifier(nn.Module):
    def __init__(self, num_classes: int = 18):
        super().__init__()
        self.backbone = models.resnet18(num_classes=num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.softmax(self.backbone(x), dim=1)


def transform_image(image_bytes: bytes) -> torch.Tensor:
    tf = transforms.Compose([
        transforms.Resize((512, 384)),
        transforms.ToTensor(),
        transforms.Normalize(mean=(0.5, 0.5, 0.5), std=(0.2, 0.2, 0.2)),
    ])
    image = Image.open(io.BytesIO(image_bytes)).convert("RGB")
    return tf(image).unsqueeze(0)


def load_model(path: str) -> MaskClassifier:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MaskClassifier(num_classes=18).to(device)
    model.load_state_dict(torch.load(path, map_location=device))
    model.eval()
    return model


def get_prediction(model: MaskClassifier, image_bytes: bytes) -> Tuple[torch.Tensor, torch.Tensor]:
    tensor = transform_image(image_bytes=image_bytes)
    outputs = model.forward(tensor)  # bug: inputs_not_moved
    _, y_hat = outputs.max(1)
    return tensor, y_hat
