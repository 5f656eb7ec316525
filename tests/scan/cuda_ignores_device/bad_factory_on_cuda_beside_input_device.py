# A fused normalisation helper: most buffers follow the input's device, one is made on "cuda" (the
# current GPU); and a helper handed a second GPU by name from a class that chose its device.
import torch


def rms_norm_forward(x, weight, eps=1e-6):
    rows, cols = x.shape
    out = torch.empty(rows, cols, device=x.device, dtype=x.dtype)
    inv_rms = torch.empty((rows,), dtype=torch.float32, device="cuda")  # expect: code.cuda_ignores_device
    inv_rms.copy_(torch.rsqrt(x.float().pow(2).mean(-1) + eps))
    out.copy_(x * inv_rms[:, None] * weight)
    return out, inv_rms


def refine(values, device="cuda:0", steps=10):
    values = values.to(device)
    for _ in range(steps):
        values = values * 0.5
    return values


class Fuser:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def fuse(self, parts, train=True):
        stacked = torch.cat(parts).to(self.device)
        if train:
            stacked = refine(stacked, device="cuda:1")  # expect: code.cuda_ignores_device
        return stacked.mean(0)
