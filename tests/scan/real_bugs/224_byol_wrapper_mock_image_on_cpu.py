# source: https://github.com/lucidrains/byol-pytorch/pull/30
# kind: inputs_not_moved
# bug: the BYOL wrapper ran a forward pass on a mock image, `torch.randn(2, 3, image_size, image_size)`, at the end of `__init__` to instantiate its lazily built projector, so wrapping a network that was already on CUDA (as in the README's `resnet50(...).cuda()`) failed in the constructor; the maintainer's fix looks up the wrapped network's device, moves the wrapper there and creates the mock image with `device=device`.
# split: test9
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision import transforms as T


class MLP(nn.Module):
    def __init__(self, dim, projection_size, hidden_size=4096):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden_size), nn.BatchNorm1d(hidden_size), nn.ReLU(inplace=True),
                                 nn.Linear(hidden_size, projection_size))

    def forward(self, x):
        return self.net(x)


class NetWrapper(nn.Module):
    def __init__(self, net, projection_size, projection_hidden_size, layer=-2):
        super().__init__()
        self.net = net
        self.layer = layer
        self.projector = None
        self.projection_size = projection_size
        self.projection_hidden_size = projection_hidden_size
        self._hidden = None
        children = [*self.net.children()]
        children[self.layer].register_forward_hook(self._hook)

    def _hook(self, _, __, output):
        self._hidden = output.flatten(1)

    def _get_projector(self, hidden):
        if self.projector is None:
            self.projector = MLP(hidden.shape[-1], self.projection_size, self.projection_hidden_size).to(hidden)
        return self.projector

    def forward(self, x):
        self.net(x)
        hidden = self._hidden
        return self._get_projector(hidden)(hidden)


def loss_fn(x, y):
    x, y = F.normalize(x, dim=-1), F.normalize(y, dim=-1)
    return 2 - 2 * (x * y).sum(dim=-1)


class BYOL(nn.Module):
    def __init__(self, net, image_size, projection_size=256, projection_hidden_size=4096, moving_average_decay=0.99):
        super().__init__()
        self.augment = nn.Sequential(T.RandomResizedCrop((image_size, image_size)), T.RandomHorizontalFlip())
        self.online_encoder = NetWrapper(net, projection_size, projection_hidden_size)
        self.target_encoder = None
        self.online_predictor = MLP(projection_size, projection_size, projection_hidden_size)
        self.decay = moving_average_decay

        # send a mock image tensor to instantiate the lazily built projector
        self.forward(torch.randn(2, 3, image_size, image_size))  # bug: inputs_not_moved

    def _get_target_encoder(self):
        if self.target_encoder is None:
            self.target_encoder = copy.deepcopy(self.online_encoder)
            for p in self.target_encoder.parameters():
                p.requires_grad = False
        return self.target_encoder

    def forward(self, x):
        one, two = self.augment(x), self.augment(x)
        pred_one = self.online_predictor(self.online_encoder(one))
        pred_two = self.online_predictor(self.online_encoder(two))
        with torch.no_grad():
            target = self._get_target_encoder()
            t_one, t_two = target(one), target(two)
        return (loss_fn(pred_one, t_two.detach()) + loss_fn(pred_two, t_one.detach())).mean()


if __name__ == "__main__":
    from torchvision import models

    resnet = models.resnet50(weights=None).cuda()
    learner = BYOL(resnet, image_size=256).cuda()
