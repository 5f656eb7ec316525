# source: https://github.com/MouseLand/cellpose/pull/615
# also: https://github.com/MouseLand/cellpose/commit/ad4be349ab43beae4122ffed801cc854cb2fefea
# kind: loaded_weights_not_moved
# bug: the segmentation U-Net was built on the model's chosen `device`, but on GPU its `load_model` read the pretrained weights with a bare `torch.load(filename)`, which restores them onto the GPU they were saved from (cuda:0), so a model placed on another GPU (cuda:1) was not loaded properly; the fix passes the model's device down and loads with `map_location=device`.
# split: test13
import torch
import torch.nn as nn
import torch.nn.functional as F


class SegNet(nn.Module):
    def __init__(self, nbase=(2, 32, 64, 128), nout=3):
        super().__init__()
        self.nbase, self.nout = list(nbase), nout
        self.down = nn.ModuleList(nn.Conv2d(a, b, 3, padding=1) for a, b in zip(self.nbase[:-1], self.nbase[1:]))
        self.up = nn.ModuleList(nn.Conv2d(b, a, 3, padding=1) for a, b in zip(self.nbase[1:-1], self.nbase[2:]))
        self.output = nn.Conv2d(self.nbase[1], nout, 1)
        self.diam_mean = nn.Parameter(torch.ones(1) * 30.0, requires_grad=False)

    def forward(self, x):
        skips = []
        for conv in self.down:
            x = F.relu(conv(x))
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = skips.pop()
        for conv in reversed(self.up):
            x = F.interpolate(F.relu(conv(x)), scale_factor=2) + skips.pop()
        return self.output(x)

    def load_model(self, filename, cpu=False):
        if not cpu:
            state_dict = torch.load(filename)  # bug: loaded_weights_not_moved
        else:
            self.__init__(self.nbase, self.nout)
            state_dict = torch.load(filename, map_location=torch.device("cpu"))
        self.load_state_dict(dict(state_dict.items()), strict=False)


class CellModel:
    def __init__(self, pretrained_model, gpu=True, device=None):
        self.device = device if device is not None else torch.device("cuda:0" if gpu else "cpu")
        self.gpu = self.device.type == "cuda"
        self.net = SegNet().to(self.device)
        self.net.load_model(pretrained_model, cpu=(not self.gpu))
        self.diam_mean = self.net.diam_mean.data.cpu().numpy()[0]

    def eval(self, imgs):
        x = torch.as_tensor(imgs, dtype=torch.float32, device=self.device)
        with torch.no_grad():
            return self.net(x).cpu().numpy()


if __name__ == "__main__":
    model = CellModel("cyto_model.pth", device=torch.device("cuda:1"))
