# source: https://github.com/wangyida/softpool/issues/11
# kind: module_in_forward
# bug: the point-cloud SoftPool operator built its `nn.Conv2d` layers (already `.cuda()`'d) inside `forward`, so every call used freshly initialised, unregistered convolutions that were never trained and never saved in the checkpoint; the later model code defines them once in `__init__` as `self.conv2d_*`.
# split: test9
import torch
import torch.nn as nn


def train2cabins(windows, num_cabin=8):
    size_bth, size_feat, regions, num_points = windows.shape
    cabins = torch.zeros(size_bth, size_feat, regions, num_cabin, device=windows.device)
    points_cabin = num_points // num_cabin
    for idx in range(num_cabin):
        cabins[:, :, :, idx] = torch.max(windows[:, :, :, idx * points_cabin:(idx + 1) * points_cabin], dim=3)[0]
    return cabins


class Sorter(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.conv1d = nn.Conv1d(dim_in, dim_out, 1)

    def forward(self, x):
        val = self.conv1d(x)
        return val, torch.argmax(val, dim=1)


class SoftPool(nn.Module):
    def __init__(self, regions=16, cabins=8, sp_ratio=4, size_feat=256):
        super().__init__()
        self.regions = regions
        self.num_cabin = cabins
        self.sp_ratio = sp_ratio
        self.sorter = Sorter(size_feat, regions)

    def forward(self, x):
        size_bth, size_feat, pnt = x.shape
        pnt_per_sort = pnt // self.sp_ratio
        conv2d_cabin = nn.Conv2d(size_feat, size_feat, kernel_size=(1, self.num_cabin), stride=(1, 1)).cuda()  # bug: module_in_forward

        val, _ = self.sorter(x)
        feats = []
        for region in range(self.regions):
            _, order = torch.sort(val[:, region, :], dim=1, descending=True)
            top = order[:, :pnt_per_sort]
            feats.append(torch.gather(x, 2, top[:, None, :].expand(-1, size_feat, -1)))
        windows = torch.stack(feats, dim=2)
        cabins = train2cabins(windows, self.num_cabin)
        return conv2d_cabin(cabins).squeeze(-1)
