# source: https://github.com/talmolab/sleap-nn/pull/133
# also: https://github.com/talmolab/sleap-nn/commit/379ab5119cce6c6104967b525262b50c90d54911
# kind: other
# bug: bottom-up pose inference built the interpolation knots for each candidate limb with the legacy constructor torch.Tensor([0, 1], device=X.device); the legacy constructor only accepts a CPU device, so grouping part-affinity fields on CUDA raised at once; the fix uses torch.tensor([0, 1], device=X.device).
# split: test7
import torch


def interp1d(x, y, x_new):
    # piecewise-linear interpolation, batched over rows
    idx = torch.searchsorted(x.contiguous(), x_new.contiguous()).clamp(1, x.shape[-1] - 1)
    x0, x1 = x.gather(-1, idx - 1), x.gather(-1, idx)
    y0, y1 = y.gather(-1, idx - 1), y.gather(-1, idx)
    w = (x_new - x0) / (x1 - x0)
    return y0 + w * (y1 - y0)


def make_line_subs(peaks, edge_peak_inds, edge_inds, n_line_points, stride, pafs_hw):
    src = torch.index_select(peaks, 0, edge_peak_inds[:, 0])
    dst = torch.index_select(peaks, 0, edge_peak_inds[:, 1])
    n = src.shape[0]
    X = torch.stack((src[:, 0], dst[:, 0]), dim=-1).double()
    Y = torch.stack((src[:, 1], dst[:, 1]), dim=-1).double()
    knots = torch.Tensor([0, 1], device=X.device).repeat(n, 1)  # bug: other
    knots_new = torch.linspace(0, 1, steps=n_line_points, device=X.device).repeat(n, 1)
    XY = torch.stack([interp1d(knots, X, knots_new), interp1d(knots, Y, knots_new)], dim=1)
    XY = (XY / stride).round().int()[:, [1, 0], :]
    h, w = pafs_hw
    XY[:, 0] = XY[:, 0].clamp(0, h - 1)
    XY[:, 1] = XY[:, 1].clamp(0, w - 1)
    chan = edge_inds.view(-1, 1, 1).expand(-1, 1, n_line_points).to(peaks.device)
    return torch.cat((XY, chan), dim=1).permute(0, 2, 1)


def score_candidates(pafs, peaks, edge_peak_inds, edge_inds, n_line_points=10, stride=4):
    subs = make_line_subs(peaks, edge_peak_inds, edge_inds, n_line_points, stride, pafs.shape[:2])
    rows, cols, ch = subs[..., 0], subs[..., 1], subs[..., 2]
    return pafs[rows.long(), cols.long(), ch.long()].mean(-1)


if __name__ == "__main__":
    dev = "cuda"
    pafs = torch.rand(96, 96, 4, device=dev)
    peaks = torch.rand(6, 2, device=dev) * 380
    pairs = torch.tensor([[0, 1], [2, 3], [4, 5]], device=dev)
    print(score_candidates(pafs, peaks, pairs, torch.tensor([0, 1, 3], device=dev)))
