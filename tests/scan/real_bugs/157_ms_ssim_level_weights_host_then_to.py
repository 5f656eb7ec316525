# source: https://github.com/VainF/pytorch-msssim/pull/31
# also: https://github.com/VainF/pytorch-msssim/commit/a948c909ade9060887019f7d0dcbe313109fd379
# kind: per_step_host_alloc
# bug: every ms_ssim call built the five level weights with torch.FloatTensor(weights) on the host and then copied them with .to(X.device, dtype=X.dtype); PR #31 tried to create them on the device directly, and a948c90 settled on X.new_tensor(weights).
# split: test5
import torch
import torch.nn.functional as F


def gauss_1d(size, sigma, like):
    coords = torch.arange(size, dtype=like.dtype, device=like.device) - size // 2
    g = torch.exp(-(coords ** 2) / (2 * sigma ** 2))
    return (g / g.sum()).view(1, 1, 1, -1)


def ssim_parts(x, y, win, data_range=1.0, k=(0.01, 0.03)):
    c1, c2 = (k[0] * data_range) ** 2, (k[1] * data_range) ** 2
    ch = x.shape[1]
    blur = lambda t: F.conv2d(F.conv2d(t, win, groups=ch), win.transpose(2, 3), groups=ch)
    mu_x, mu_y = blur(x), blur(y)
    sxx = blur(x * x) - mu_x ** 2
    syy = blur(y * y) - mu_y ** 2
    sxy = blur(x * y) - mu_x * mu_y
    cs = (2 * sxy + c2) / (sxx + syy + c2)
    ssim = ((2 * mu_x * mu_y + c1) / (mu_x ** 2 + mu_y ** 2 + c1)) * cs
    return ssim.flatten(2).mean(-1), cs.flatten(2).mean(-1)


def ms_ssim(x, y, data_range=1.0, weights=None, win_size=11, sigma=1.5):
    if weights is None:
        weights = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333]
    weights = torch.FloatTensor(weights).to(x.device, dtype=x.dtype)  # bug: per_step_host_alloc
    win = gauss_1d(win_size, sigma, x).repeat(x.shape[1], 1, 1, 1)
    mcs = []
    for i in range(weights.shape[0]):
        ssim_pc, cs = ssim_parts(x, y, win, data_range)
        if i < weights.shape[0] - 1:
            mcs.append(torch.relu(cs))
            x, y = F.avg_pool2d(x, 2), F.avg_pool2d(y, 2)
    stacked = torch.stack(mcs + [torch.relu(ssim_pc)], dim=0)
    return torch.prod(stacked ** weights.view(-1, 1, 1), dim=0).mean()
