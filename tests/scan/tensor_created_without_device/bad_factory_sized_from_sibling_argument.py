# Class ids made on the CPU, sized from the boxes handed to the same call: inside the call they meet
# the boxes, which are on the GPU.
import torch
from torchvision.ops import batched_nms

device = "cuda" if torch.cuda.is_available() else "cpu"


def dedupe(boxes, scores, threshold=0.7):
    keep = batched_nms(boxes.float(), scores, torch.zeros(len(boxes)), threshold)  # expect: code.tensor_created_without_device
    return boxes[keep]


def run(detector, images):
    boxes, scores = detector(images.to(device))
    return dedupe(boxes, scores)
