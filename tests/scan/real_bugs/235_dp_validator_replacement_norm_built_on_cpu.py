# source: https://github.com/meta-pytorch/opacus/issues/339
# also: https://github.com/meta-pytorch/opacus/commit/8e361026b26210765877a9f65437dd8262a3344c
# kind: model_not_moved
# bug: the differential-privacy module validator's fix() cloned the user's (possibly CUDA) model and swapped each incompatible submodule, e.g. BatchNorm, for a freshly constructed GroupNorm built by the fixer on the CPU, so a model that had been moved to the GPU came back with CPU normalisation layers in the middle (the code even carried a TODO saying new modules were always created on the CPU); the fix (PR #356) moves each replacement to the device of the submodule it replaces.
# split: test10
import copy

import torch
import torch.nn as nn


def batchnorm_to_groupnorm(module, **kwargs):
    return nn.GroupNorm(min(32, module.num_features), module.num_features, affine=True)


FIXERS = {nn.BatchNorm1d: batchnorm_to_groupnorm, nn.BatchNorm2d: batchnorm_to_groupnorm}


def trainable_modules(module):
    return [(n, m) for n, m in module.named_modules() if any(p.requires_grad for p in m.parameters(recurse=False))]


def get_submodule(root, name):
    for part in name.split(".") if name else []:
        root = root._modules[part]
    return root


def replace_submodule(root, name, new_module):
    path = name.split(".")
    if path == [""]:
        return new_module
    parent = root
    for part in path[:-1]:
        parent = parent._modules[part]
    parent._modules[path[-1]] = new_module
    return root


class ModuleValidator:
    @classmethod
    def fix(cls, module, **kwargs):
        module = copy.deepcopy(module)
        names = [n for n, _ in trainable_modules(module)]
        for name in names:
            sub = get_submodule(module, name)
            fixer = FIXERS.get(type(sub))
            if fixer is None:
                continue
            new_sub = fixer(sub, **kwargs)
            module = replace_submodule(module, name, new_sub)  # bug: model_not_moved
        return module


def make_private_model(device="cuda"):
    net = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10),
    ).to(device)
    net = ModuleValidator.fix(net)
    x = torch.randn(8, 3, 32, 32, device=device)
    return net, net(x)
