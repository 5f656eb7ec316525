# source: https://github.com/ewrfcas/face_attribute_classification_pytorch/issues/1
# also: https://github.com/ewrfcas/face_attribute_classification_pytorch/commit/9cd210249f14d47d6f79e61480586e9b864a86d6
# kind: module_in_forward
# bug: the face-attribute classifier applied nn.Dropout(0.5)(x) by constructing the module inside forward, so the dropout was an unregistered, freshly built module on every call that model.eval() could not switch off, making test-time predictions random; the fix ("fix the dropout bug") creates self.dropout in __init__ and calls it in forward.
# split: test6
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision import models


class AttributeClassifier(nn.Module):
    def __init__(self, num_attrs=40, device="cuda"):
        super().__init__()
        self.backbone = models.resnet34(weights="IMAGENET1K_V1")
        self.backbone.fc = nn.Identity()
        self.fc = nn.Linear(512, num_attrs)
        self.register_buffer("lambdas", torch.ones(num_attrs, device=device))

    def forward(self, images, labels=None):
        x = torch.flatten(self.backbone(images), 1)
        x = nn.Dropout(0.5)(x)  # bug: module_in_forward
        logits = self.fc(x)
        if labels is None:
            return logits
        per_attr = F.binary_cross_entropy_with_logits(logits, labels, reduction="none")
        return (per_attr * self.lambdas.unsqueeze(0)).sum(dim=1).mean()


def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            preds = (model(images) > 0).float()
            correct += (preds == labels).sum().item()
            total += labels.numel()
    return correct / max(total, 1)
