# source: https://github.com/sovrasov/flops-counter.pytorch/pull/12
# also: https://github.com/sovrasov/flops-counter.pytorch/commit/ecf67848f8a49b63a06b0983e94fc749f88a42c1
# kind: hardcoded_cpu
# bug: the complexity counter built its dummy batch with the CPU tensor type `torch.FloatTensor(1, *input_res)` and fed it to the hooked model, so counting a model that had been moved to CUDA failed with a device/type mismatch; the merged fix allocates the batch with the dtype and device of the model's first parameter.
# split: test17
import sys

import torch
import torch.nn as nn


def add_flops_counting_methods(model):
    model.__flops__ = 0

    def hook(module, inputs, output):
        model.__flops__ += output.numel() * (module.in_features if isinstance(module, nn.Linear) else 1)

    handles = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    return model, handles


def get_model_complexity_info(model, input_res, input_constructor=None, ost=sys.stdout):
    assert type(input_res) is tuple and len(input_res) >= 2
    flops_model, handles = add_flops_counting_methods(model)
    flops_model.eval()
    with torch.no_grad():
        if input_constructor:
            _ = flops_model(**input_constructor(input_res))
        else:
            batch = torch.FloatTensor(1, *input_res)  # bug: hardcoded_cpu
            _ = flops_model(batch)
    for h in handles:
        h.remove()
    params = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"{flops_model.__flops__} MACs, {params} params", file=ost)
    return flops_model.__flops__, params


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


if __name__ == "__main__":
    with torch.cuda.device(0):
        net = SmallNet().cuda()
        get_model_complexity_info(net, (3, 224, 224))
