# source: https://github.com/facebookresearch/pifuhd/pull/66
# also: https://github.com/facebookresearch/pifuhd/commit/e8ed627e637f6b311368089109609e9dd4f67459
# kind: other
# bug: the reconstruction script had just gained a CPU fallback (`cuda` = the GPU if available, else the CPU, also used as `map_location`), but a leftover line further down reassigned `cuda = torch.device('cuda:%d' % opt.gpu_id)` unconditionally, so the networks and every test sample were still sent to a CUDA device on CPU-only machines; the merged fix deletes the reassignment.
# split: test14
import os

import torch
import torch.nn as nn


class ImplicitNet(nn.Module):
    def __init__(self, in_ch=3, dim=256):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(in_ch, 64, 7, 2, 3), nn.ReLU(), nn.Conv2d(64, dim, 3, 2, 1))
        self.mlp = nn.Sequential(nn.Linear(dim + 3, 256), nn.ReLU(), nn.Linear(256, 1), nn.Sigmoid())

    def forward(self, image, points):
        feat = self.encoder(image).mean(dim=(2, 3))
        feat = feat.unsqueeze(1).expand(-1, points.shape[1], -1)
        return self.mlp(torch.cat([feat, points], dim=-1))


def reconstruct(opt, dataset, results_dir):
    cuda = torch.device("cuda:%d" % opt.gpu_id if torch.cuda.is_available() else "cpu")
    state_dict = None
    if os.path.exists(opt.checkpoint_path):
        state_dict = torch.load(opt.checkpoint_path, map_location=cuda)
        opt = state_dict["opt"]
    else:
        raise FileNotFoundError(opt.checkpoint_path)

    cuda = torch.device("cuda:%d" % opt.gpu_id)  # bug: other

    net = ImplicitNet().to(device=cuda)
    net.load_state_dict(state_dict["model_state_dict"])
    net.eval()
    os.makedirs(results_dir, exist_ok=True)
    with torch.no_grad():
        for i in range(len(dataset)):
            sample = dataset[i]
            image = sample["img"].unsqueeze(0).to(device=cuda)
            points = torch.rand(1, 4096, 3, device=cuda) * 2 - 1
            occupancy = net(image, points)
            torch.save(occupancy.cpu(), os.path.join(results_dir, "result_%d.pt" % i))
