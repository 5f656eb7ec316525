# source: https://github.com/JDAI-CV/fast-reid/pull/509
# also: https://github.com/JDAI-CV/fast-reid/commit/62ad5e1a8b69a14663b6e8cfc06cbbd2d9c984f6
# kind: other
# bug: the re-id predictor moved each image batch to the model's (CUDA) device and returned the features still on the GPU, so the rank-list visualisation script's cosine distance matrix was a CUDA tensor and `distmat.numpy()` failed; the maintainer's fix returns `predictions.cpu()` from the predictor, for every downstream NumPy consumer.
# split: test13
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureNet(nn.Module):
    def __init__(self, dim=2048):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(64, dim)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, batch):
        return F.normalize(self.head(self.backbone(batch["images"])), dim=1)


class Predictor:
    def __init__(self, weights, device="cuda"):
        self.model = FeatureNet().to(device)
        self.model.load_state_dict(torch.load(weights, map_location=device))
        self.model.eval()

    def __call__(self, image):
        inputs = {"images": image.to(self.model.device)}
        with torch.no_grad():
            predictions = self.model(inputs)
        return predictions


def evaluate_rank(distmat, q_pids, g_pids, max_rank=10):
    indices = np.argsort(distmat, axis=1)
    matches = (g_pids[indices] == q_pids[:, np.newaxis]).astype(np.int32)
    return matches[:, :max_rank].cumsum(1).clip(max=1).mean(0)


def visualize(loader, num_query, weights):
    predictor = Predictor(weights)
    feats, pids = [], []
    for batch in loader:
        feats.append(predictor(batch["images"]))
        pids.extend(batch["targets"].cpu().numpy())
    feats = torch.cat(feats, dim=0)
    q_feat, g_feat = feats[:num_query], feats[num_query:]
    q_pids, g_pids = np.asarray(pids[:num_query]), np.asarray(pids[num_query:])
    distmat = 1 - torch.mm(q_feat, g_feat.t())
    distmat = distmat.numpy()  # bug: other
    return evaluate_rank(distmat, q_pids, g_pids)
