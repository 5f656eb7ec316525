# source: https://github.com/trueagi-io/minecraft-demo/pull/33
# also: https://github.com/trueagi-io/minecraft-demo/commit/d8c9c237a8a1ee23b089defc76a57b92a1533673
# kind: inputs_not_moved
# bug: the agent loaded its block-segmentation network onto CUDA when available, but fed it each camera frame built on the host with `torch.as_tensor(...)`, so the forward failed on a GPU machine; the merged fix moves the input to the device of the network's weights at the start of `forward`.
# split: test16
import numpy as np
import torch
import torch.nn as nn


class BlockSegmenter(nn.Module):
    def __init__(self, n_classes=3, ch=3, grid=8):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(ch, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(128, 128, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.head = nn.Conv2d(128, n_classes * grid * grid, 1)
        self.shuffle = nn.PixelShuffle(grid)

    def forward(self, x):
        x = self.encoder(x)
        return torch.softmax(self.shuffle(self.head(x)), dim=1)


class LumberjackAgent:
    def __init__(self, weights_path):
        device = "cuda" if torch.cuda.is_available() else "cpu"
        self.net = BlockSegmenter().to(device)
        self.net.load_state_dict(torch.load(weights_path, map_location=device)["model"])
        self.net.eval()

    def get_image(self, pixels):
        img = np.frombuffer(pixels, dtype=np.uint8).reshape(240, 320, 3)
        img = torch.as_tensor(img).permute(2, 0, 1)
        return img.unsqueeze(0) / 255.0

    def act(self, pixels):
        img = self.get_image(pixels)
        with torch.no_grad():
            heatmaps = self.net(img)  # bug: inputs_not_moved
        h, w = heatmaps.shape[-2:]
        pooled = nn.functional.avg_pool2d(heatmaps[:, 1:], kernel_size=(h // 10, w // 10))
        log_score, leaves_score = pooled[0, 0], pooled[0, 1]
        idx = torch.argmax(log_score)
        return divmod(idx.item(), log_score.shape[-1]), leaves_score.max().item()
