# source: https://github.com/FangjinhuaWang/PatchmatchNet/pull/62
# kind: tensor_no_device_in_forward
# bug: the multi-view-stereo network's forward built its placeholder tensors (initial depth, score, view weights and the empty confidence returned in training mode) with torch.empty(0) and no device, so under DataParallel the gather step met CPU tensors and failed; the fix creates every placeholder on the input's device.
# split: test22
from typing import Dict, List, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.conv0 = nn.Conv2d(3, channels, 3, padding=1)
        self.conv1 = nn.Conv2d(channels, channels, 3, stride=2, padding=1)

    def forward(self, img):
        x = F.relu(self.conv0(img))
        return F.relu(self.conv1(x))


class PatchStage(nn.Module):
    def __init__(self, channels=16, num_samples=8):
        super().__init__()
        self.num_samples = num_samples
        self.score_head = nn.Conv2d(channels, num_samples, 1)

    def forward(self, ref_feat, depth_min, depth_max, depth):
        b, _, h, w = ref_feat.shape
        device = ref_feat.device
        steps = torch.linspace(0, 1, self.num_samples, device=device).view(1, -1, 1, 1)
        samples = depth_min.view(b, 1, 1, 1) + steps * (depth_max - depth_min).view(b, 1, 1, 1)
        if depth.numel() > 0:
            samples = samples + depth
        score = torch.softmax(self.score_head(ref_feat), dim=1)
        new_depth = torch.sum(score * samples, dim=1, keepdim=True)
        return new_depth, score


class StereoNet(nn.Module):
    def __init__(self, stages=2):
        super().__init__()
        self.features = FeatureNet()
        self.stages = nn.ModuleList([PatchStage() for _ in range(stages)])

    def forward(self, images, intrinsics, depth_min, depth_max) -> Tuple[torch.Tensor, torch.Tensor, Dict[int, List[torch.Tensor]]]:
        ref_feat = self.features(images[:, 0])
        depth = torch.empty(0)
        score = torch.empty(0)
        per_stage: Dict[int, List[torch.Tensor]] = {}
        for idx, stage in enumerate(self.stages):
            depth, score = stage(ref_feat, depth_min, depth_max, depth)
            per_stage[idx] = [depth]
        depth = F.interpolate(depth, scale_factor=2, mode="bilinear", align_corners=False)
        if self.training:
            return depth, torch.empty(0), per_stage  # bug: tensor_no_device_in_forward
        confidence = F.avg_pool2d(score.max(dim=1, keepdim=True)[0], 3, stride=1, padding=1)
        return depth, confidence, per_stage


def train_one_epoch(model, loader, optimizer):
    model.train()
    for batch in loader:
        batch = {k: v.cuda() for k, v in batch.items()}
        depth, _, stages = model(batch["imgs"], batch["intrinsics"], batch["depth_min"], batch["depth_max"])
        loss = F.smooth_l1_loss(depth, batch["depth_gt"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    net = nn.DataParallel(StereoNet()).cuda()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    fake = [{
        "imgs": torch.rand(4, 3, 3, 64, 64),
        "intrinsics": torch.eye(3).expand(4, 3, 3),
        "depth_min": torch.full((4,), 425.0),
        "depth_max": torch.full((4,), 935.0),
        "depth_gt": torch.rand(4, 1, 64, 64),
    }]
    train_one_epoch(net, fake, opt)
