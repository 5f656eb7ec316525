# The same helpers written so the values go back where they came from, and a bare .cuda() under a
# test about the GPU itself.
import torch


def stable_sort_values(x, dim=0):
    if x.is_cuda:
        return x.cpu().sort(dim=dim, stable=True).values.to(x.device)
    return x.sort(dim=dim, stable=True).values


def prepare_views(image, augment, device):
    view = image.unsqueeze(0).to(device)
    extra = None
    if augment:
        extra = image.flip(-1).unsqueeze(0).to(device)
    if torch.cuda.is_available():
        extra = extra.cuda() if extra is not None else None
    return view, extra


def host_copy(batch):
    # Back to the current GPU from a value that never was on one: nothing to follow.
    table = torch.arange(10).cpu()
    return table.cuda(), batch
