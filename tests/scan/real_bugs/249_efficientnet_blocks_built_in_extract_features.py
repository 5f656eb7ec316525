# source: https://github.com/toandaominh1997/EfficientDet.Pytorch/issues/8
# also: https://github.com/toandaominh1997/EfficientDet.Pytorch/pull/9
# also: https://github.com/toandaominh1997/EfficientDet.Pytorch/commit/8c7ca086adf43943144a0ba3917f077bdd9d7beb
# kind: module_in_forward
# bug: the EfficientDet backbone's `extract_features`, called from forward, re-created every MBConv block on each call (`MBConvBlock(block_args, global_params)(x, ...)`) instead of running the blocks registered in `self._blocks`, so the freshly built layers were untrained, outside the optimizer and on the CPU, and a model moved to CUDA failed with "Expected object of backend CUDA but got backend CPU for argument #2 'weight'"; the maintainer's fix iterates over the registered `self._blocks`.
# split: test11
import collections

import torch
import torch.nn as nn
import torch.nn.functional as F

BlockArgs = collections.namedtuple("BlockArgs", ["in_ch", "out_ch", "expand", "kernel", "stride", "repeat"])

STAGES = [
    BlockArgs(32, 16, 1, 3, 1, 1),
    BlockArgs(16, 24, 6, 3, 2, 2),
    BlockArgs(24, 40, 6, 5, 2, 2),
    BlockArgs(40, 80, 6, 3, 2, 3),
]


class MBConv(nn.Module):
    def __init__(self, args):
        super().__init__()
        mid = args.in_ch * args.expand
        self.expand = nn.Conv2d(args.in_ch, mid, 1, bias=False) if args.expand != 1 else nn.Identity()
        self.dw = nn.Conv2d(mid, mid, args.kernel, args.stride, args.kernel // 2, groups=mid, bias=False)
        self.bn = nn.BatchNorm2d(mid)
        self.project = nn.Conv2d(mid, args.out_ch, 1, bias=False)
        self.bn_out = nn.BatchNorm2d(args.out_ch)
        self.skip = args.stride == 1 and args.in_ch == args.out_ch

    def forward(self, x, drop_rate=0.0):
        h = F.silu(self.bn(self.dw(F.silu(self.expand(x)))))
        h = self.bn_out(self.project(h))
        if self.skip:
            if self.training and drop_rate:
                h = F.dropout(h, p=drop_rate)
            h = h + x
        return h


class Backbone(nn.Module):
    def __init__(self, drop_connect_rate=0.2):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.SiLU())
        self.drop_connect_rate = drop_connect_rate
        blocks = []
        for args in STAGES:
            blocks.append(MBConv(args))
            for _ in range(args.repeat - 1):
                blocks.append(MBConv(args._replace(in_ch=args.out_ch, stride=1)))
        self.blocks = nn.ModuleList(blocks)

    def extract_features(self, inputs):
        x = self.stem(inputs)
        features = []
        idx = 0
        for args in STAGES:
            rate = self.drop_connect_rate * idx / len(self.blocks)
            x = MBConv(args)(x, drop_rate=rate)  # bug: module_in_forward
            idx += 1
            for _ in range(args.repeat - 1):
                x = MBConv(args._replace(in_ch=args.out_ch, stride=1))(x, drop_rate=rate)
                idx += 1
            features.append(x)
        return features

    def forward(self, inputs):
        return self.extract_features(inputs)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = Backbone().to(device)
    print([f.shape for f in net(torch.randn(2, 3, 256, 256, device=device))])
