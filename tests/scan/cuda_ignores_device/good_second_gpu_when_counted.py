# A second GPU named only under a test that counts the GPUs; buffers that all follow the input.
import torch


def rms_norm_forward(x, weight, eps=1e-6):
    rows, cols = x.shape
    out = torch.empty(rows, cols, device=x.device, dtype=x.dtype)
    inv_rms = torch.empty((rows,), dtype=torch.float32, device=x.device)
    inv_rms.copy_(torch.rsqrt(x.float().pow(2).mean(-1) + eps))
    out.copy_(x * inv_rms[:, None] * weight)
    return out, inv_rms


def refine(values, device="cuda:0"):
    return values.to(device) * 0.5


class Fuser:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def fuse(self, parts):
        stacked = torch.cat(parts).to(self.device)
        if torch.cuda.device_count() > 1:
            stacked = refine(stacked, device="cuda:1")
        return stacked.mean(0)
