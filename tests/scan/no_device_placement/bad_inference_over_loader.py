import torch
import torchvision
from torch.utils.data import DataLoader

net = torchvision.models.resnet50(weights="IMAGENET1K_V2")  # expect: code.no_device_placement
net.eval()
val = torchvision.datasets.ImageFolder("val/", transform=torchvision.transforms.ToTensor())
preds = []
with torch.no_grad():
    for images, _ in DataLoader(val, batch_size=256, num_workers=8):
        preds.append(net(images).argmax(1))
