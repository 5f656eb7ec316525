# The ids follow the boxes' device.
import torch
from torchvision.ops import batched_nms

device = "cuda" if torch.cuda.is_available() else "cpu"


def dedupe(boxes, scores, threshold=0.7):
    keep = batched_nms(boxes.float(), scores, torch.zeros(len(boxes), device=boxes.device), threshold)
    return boxes[keep]


def dedupe_like(boxes, scores, threshold=0.7):
    keep = batched_nms(boxes, scores, torch.zeros_like(scores, dtype=torch.int64), threshold)
    return boxes[keep]


def run(detector, images):
    boxes, scores = detector(images.to(device))
    return dedupe(boxes, scores), dedupe_like(boxes, scores)
