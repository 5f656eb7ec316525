# source: https://github.com/v0lta/PyTorch-Wavelet-Toolbox/pull/19
# also: https://github.com/v0lta/PyTorch-Wavelet-Toolbox/commit/675bb35f5c30760bb74c62f968e8dde198ff1dce
# kind: tensor_no_device_in_forward
# bug: the sparse matrix-based wavelet transform built its strided convolution matrix by multiplying the filter's sparse convolution matrix (on the filter's device) with a row-selection matrix made by `torch.sparse_coo_tensor(...)` from `torch.arange` indices with no device, so with CUDA filters `torch.sparse.mm` mixed CPU and CUDA operands; the merged fix passes `device=` to both `sparse_coo_tensor` calls.
# split: test14
import numpy as np
import torch


def conv_matrix(filt: torch.Tensor, input_rows: int) -> torch.Tensor:
    flen = len(filt)
    start_row, stop_row = flen - 1, input_rows - 1
    rows, cols, vals = [], [], []
    for col in range(input_rows):
        for r in range(flen):
            if start_row <= col + r <= stop_row:
                rows.append(r + col - start_row)
                cols.append(col)
                vals.append(filt[r])
    idx = torch.tensor(np.stack([rows, cols]), device=filt.device)
    return torch.sparse_coo_tensor(idx, torch.stack(vals), dtype=filt.dtype, device=filt.device)


def strided_conv_matrix(filt: torch.Tensor, input_rows: int, stride: int = 2) -> torch.Tensor:
    cmat = conv_matrix(filt, input_rows)
    select_rows = torch.arange(0, cmat.shape[0], stride)
    selection = torch.sparse_coo_tensor(  # bug: tensor_no_device_in_forward
        torch.stack([torch.arange(0, len(select_rows)), select_rows]),
        torch.ones_like(select_rows),
        size=[len(select_rows), cmat.shape[0]],
        dtype=cmat.dtype,
    )
    return torch.sparse.mm(selection, cmat)


class MatrixDWT:
    def __init__(self, dec_lo: torch.Tensor, dec_hi: torch.Tensor):
        self.dec_lo, self.dec_hi = dec_lo, dec_hi

    def __call__(self, signal: torch.Tensor):
        n = signal.shape[-1]
        analysis = torch.cat([strided_conv_matrix(self.dec_lo, n), strided_conv_matrix(self.dec_hi, n)], 0)
        coeffs = torch.sparse.mm(analysis, signal.T).T
        half = coeffs.shape[-1] // 2
        return coeffs[..., :half], coeffs[..., half:]


if __name__ == "__main__":
    device = torch.device("cuda")
    s = 2 ** -0.5
    dwt = MatrixDWT(torch.tensor([s, s], device=device), torch.tensor([-s, s], device=device))
    approx, detail = dwt(torch.randn(16, 256, device=device))
