# source: https://github.com/state-spaces/mamba/pull/103
# kind: wrong_device_choice
# bug: the fused layer/RMS-norm forward helper allocated its per-row statistics buffers with device="cuda", i.e. on the default GPU, so when the model and its activations lived on another GPU (cuda:1, ...) the kernel wrote statistics to the wrong device and failed; the fix allocates them on x.device.
# split: test21
import torch
import torch.nn as nn


def _rms_norm_fwd(x, weight, bias, eps, residual=None, out_dtype=None, residual_dtype=None):
    if residual is not None:
        residual_dtype = residual.dtype
    M, N = x.shape
    assert weight.shape == (N,)
    if bias is not None:
        assert bias.shape == (N,)
    y = torch.empty_like(x, dtype=x.dtype if out_dtype is None else out_dtype)
    if residual is not None or (residual_dtype is not None and residual_dtype != x.dtype):
        residual_out = torch.empty(M, N, device=x.device, dtype=residual_dtype)
    else:
        residual_out = None
    rstd = torch.empty((M,), dtype=torch.float32, device="cuda")  # bug: wrong_device_choice

    with torch.cuda.device(x.device.index):
        xf = x.float()
        if residual is not None:
            xf = xf + residual.float()
        if residual_out is not None:
            residual_out.copy_(xf)
        rstd.copy_(torch.rsqrt(xf.pow(2).mean(dim=-1) + eps))
        out = xf * rstd[:, None] * weight.float()
        if bias is not None:
            out = out + bias.float()
        y.copy_(out)
    return y, rstd, residual_out if residual_out is not None else x


class FusedRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.register_parameter("bias", None)

    def forward(self, x, residual=None):
        shape = x.shape
        y, _, res = _rms_norm_fwd(x.reshape(-1, shape[-1]), self.weight, self.bias, self.eps,
                                  residual=None if residual is None else residual.reshape(-1, shape[-1]))
        return y.reshape(shape), res.reshape(shape)


if __name__ == "__main__":
    if torch.cuda.is_available():
        device = torch.device(f"cuda:{torch.cuda.device_count() - 1}")
        norm = FusedRMSNorm(256).to(device)
        h = torch.randn(4, 128, 256, device=device)
        out, res = norm(h, residual=torch.zeros_like(h))
        print(out.shape, out.device)
