# source: https://github.com/yuanyuanli85/Fast_Human_Pose_Estimation_Pytorch/issues/7
# also: https://github.com/yuanyuanli85/Fast_Human_Pose_Estimation_Pytorch/commit/13fa58a6ba4f9f89b0b559521d464685ecff8d2f
# kind: loaded_weights_not_moved
# bug: the demo restored the keypoint network from a checkpoint (mapped to the CPU) and sent each image to --device, but never moved the network, so a CUDA run crashed; the fix moved the model to the device before inference.
# split: test2
import argparse

import numpy as np
import torch
import torch.nn as nn


class KeypointNet(nn.Module):
    def __init__(self, joints=16):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, joints, 1))

    def forward(self, x):
        return self.body(x)


def restore(path):
    net = KeypointNet()
    state = torch.load(path, map_location=lambda storage, loc: storage)
    net.load_state_dict(state["weights"])
    net.eval()
    return net


def run_once(net, picture, device):
    batch = torch.from_numpy(picture).float().to(device)
    with torch.no_grad():
        heat = net(batch)  # bug: loaded_weights_not_moved
    return heat.cpu().numpy()


if __name__ == "__main__":
    cli = argparse.ArgumentParser()
    cli.add_argument("--weights", default="pose.pth")
    cli.add_argument("--device", default="cuda")
    opts = cli.parse_args()
    model = restore(opts.weights)
    print(run_once(model, np.zeros((1, 3, 64, 64), dtype=np.float32), opts.device).shape)
