# source: https://github.com/cleverhans-lab/cleverhans/pull/1088
# also: https://github.com/cleverhans-lab/cleverhans/commit/558117bf019b679bdc1b9752887acc841a990c93
# kind: other
# bug: the PyTorch random-noise attack built its perturbation with the legacy constructor `torch.FloatTensor(*x.shape, device=x.device)`, which only accepts a CPU device, so attacking inputs on a CUDA model raised at once; the fix builds the tensor and moves it with `.to(x.device)` before `uniform_` (the PR's words: "only the noise attack was not working with a CUDA enabled device").
# split: test10
import numpy as np
import torch


def noise_attack(x, eps=0.3, order=np.inf, clip_min=None, clip_max=None):
    if order != np.inf:
        raise NotImplementedError(order)
    eta = torch.FloatTensor(*x.shape, device=x.device).uniform_(-eps, eps)  # bug: other
    adv_x = x + eta
    if clip_min is not None or clip_max is not None:
        adv_x = torch.clamp(adv_x, clip_min, clip_max)
    return adv_x


def evaluate_under_noise(model, loader, eps=0.3, device="cuda"):
    model = model.to(device).eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            x_adv = noise_attack(x, eps=eps, clip_min=0.0, clip_max=1.0)
            correct += (model(x_adv).argmax(dim=1) == y).sum().item()
            total += y.numel()
    return correct / max(total, 1)
