# source: https://github.com/LAMDA-CL/PyCIL/issues/60
# kind: wrong_device_choice
# bug: the class-incremental network merged its old and new classifier weights in forward by padding with torch.zeros(...).cuda(), which always lands on the default GPU, so running the toolbox on cuda:1 concatenated cuda:0 padding with cuda:1 weights and failed; the maintainers confirmed the bug, and the correct fix creates the padding on the weights' device.
# split: test20
import torch
import torch.nn as nn


class SmallConvNet(nn.Module):
    def __init__(self, out_dim=64):
        super().__init__()
        self.out_dim = out_dim
        self.body = nn.Sequential(nn.Conv2d(3, out_dim, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return {"features": self.body(x).flatten(1)}


class ExpandableNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.convnets = nn.ModuleList()
        self.out_dim = None
        self.old_fc = None
        self.new_fc = None
        self.task_sizes = []

    @property
    def feature_dim(self):
        return 0 if self.out_dim is None else self.out_dim * len(self.convnets)

    def update_fc(self, nb_classes):
        new_task_size = nb_classes - sum(self.task_sizes)
        self.convnets.append(SmallConvNet())
        self.out_dim = self.convnets[-1].out_dim
        if self.new_fc is not None:
            self.old_fc = nn.Linear(self.feature_dim - self.out_dim, sum(self.task_sizes))
        self.new_fc = nn.Linear(self.out_dim, new_task_size)
        self.task_sizes.append(new_task_size)

    def forward(self, x):
        features = torch.cat([net(x)["features"] for net in self.convnets], 1)
        if self.old_fc is None:
            return {"logits": self.new_fc(features)}
        new_task_size = self.task_sizes[-1]
        fc_weight = torch.cat([self.old_fc.weight, torch.zeros((new_task_size, self.feature_dim - self.out_dim)).cuda()], dim=0)  # bug: wrong_device_choice
        pad = self.new_fc.weight.new_zeros((sum(self.task_sizes[:-1]), self.out_dim))
        fc_weight = torch.cat([fc_weight, torch.cat([pad, self.new_fc.weight], dim=0)], dim=1)
        fc_bias = torch.cat([self.old_fc.bias, self.new_fc.bias])
        return {"logits": features @ fc_weight.t() + fc_bias}


if __name__ == "__main__":
    device = torch.device("cuda:1" if torch.cuda.device_count() > 1 else "cuda:0")
    net = ExpandableNet()
    net.update_fc(10)
    net.update_fc(20)
    net.to(device)
    x = torch.randn(2, 3, 16, 16, device=device)
    print(net(x)["logits"].shape)
