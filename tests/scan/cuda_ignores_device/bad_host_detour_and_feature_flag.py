# A helper that takes its input to the host for an operation and brings it back with a bare .cuda():
# the result lands on the current GPU, not the input's. And a bare .cuda() under a feature flag in a
# function that moves everything else to the device it was given.
import torch


def stable_sort_values(x, dim=0):
    if x.is_cuda:
        return x.cpu().sort(dim=dim, stable=True).values.cuda()  # expect: code.cuda_ignores_device
    return x.sort(dim=dim, stable=True).values


def prepare_views(image, augment, device):
    view = image.unsqueeze(0).to(device)
    extra = None
    if augment:
        extra = image.flip(-1).unsqueeze(0).cuda()  # expect: code.cuda_ignores_device
    return view, extra
