import cv2
import numpy as np
import torch
from PIL import Image


def train(model, loader, optimizer, device):
    model.to(device)
    for images, masks in loader:
        images = np.stack([cv2.resize(img, (224, 224)) for img in images.numpy()])  # expect: code.cpu_preprocessing_in_loop
        masks = np.clip(masks.numpy(), 0, 1)  # expect: code.cpu_preprocessing_in_loop
        preview = Image.fromarray(images[0])  # expect: code.cpu_preprocessing_in_loop
        x = torch.from_numpy(images).permute(0, 3, 1, 2).float().to(device)
        with torch.autocast("cuda"):
            loss = torch.nn.functional.mse_loss(model(x), torch.from_numpy(masks).to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return preview
