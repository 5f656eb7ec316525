# source: https://github.com/pytorch/pytorch/issues/8017
# kind: other
# bug: A model built its conv layers in a loop and stored them in a Python list, so Module.to("cuda") neither registered nor moved them and their weights stayed on the CPU; maintainers explained the layers must live in nn.Sequential/nn.ModuleList.
# split: dev
import torch
import torch.nn as nn


class WideningStack(nn.Module):
    def __init__(self, c_in, c_first, depth):
        super().__init__()
        self.layers = []  # bug: other
        c_out = c_first
        for _ in range(depth):
            self.layers.append(nn.Conv2d(c_in, c_out, kernel_size=3))
            c_in, c_out = c_out, c_out * 2

    def forward(self, x):
        for conv in self.layers:
            x = torch.relu(conv(x))
        return x


if __name__ == "__main__":
    net = WideningStack(1, 16, 3).to(torch.device("cuda"))
    print(net.layers[0].weight.is_cuda)
    print(net(torch.randn(1, 1, 32, 32, device="cuda")).shape)
