# source: https://github.com/lucidrains/tr-rosetta-pytorch/pull/5
# also: https://github.com/lucidrains/tr-rosetta-pytorch/commit/20b7dc413b15d5caea49c64c5bedce4729ccd5e7
# kind: tensor_no_device_in_forward
# bug: the MSA preprocessing moved the one-hot alignment and its weights to the CUDA-if-available device, but when the alignment had a single row it replaced the coupling features with `torch.zeros((ncol, ncol, 442)).float()` on the CPU, which was then concatenated with the CUDA 1D features ("Expected all tensors to be on the same device ... wrapper__cat"); the fix moves the zeros to the same device.
# split: test11
import numpy as np
import torch
import torch.nn.functional as F


def pick_device():
    return "cuda" if torch.cuda.is_available() else "cpu"


def sequence_weights(msa1hot, cutoff=0.8):
    threshold = msa1hot.shape[1] * cutoff
    identity = torch.einsum("ikl,jkl->ij", msa1hot, msa1hot)
    return 1.0 / (identity > threshold).float().sum(dim=-1)


def profile(msa1hot, w):
    neff = w.sum()
    freq = (w[:, None, None] * msa1hot).sum(dim=0) / neff + 1e-9
    entropy = (-freq * torch.log(freq)).sum(dim=1)
    return torch.cat((freq, entropy[:, None]), dim=1)


def couplings(msa1hot, w, penalty=4.5):
    dev = msa1hot.device
    nr, nc, ns = msa1hot.shape
    x = msa1hot.view(nr, -1)
    npts = w.sum() - torch.sqrt(w.mean())
    mean = (x * w[:, None]).sum(dim=0, keepdim=True) / npts
    x = (x - mean) * torch.sqrt(w[:, None])
    cov = x.t() @ x / npts
    inv = torch.inverse(cov + torch.eye(nc * ns, device=dev) * penalty / torch.sqrt(w.sum()))
    feats = inv.view(nc, ns, nc, ns).transpose(1, 2).reshape(nc, nc, ns * ns)
    contacts = torch.sqrt((inv.view(nc, ns, nc, ns)[:, :-1, :, :-1] ** 2).sum(dim=(1, 3)))
    return torch.cat((feats, contacts[:, :, None]), dim=2)


def featurize(msa: np.ndarray, ns=21):
    tokens = torch.from_numpy(msa).long()
    nrow, ncol = tokens.shape
    msa1hot = F.one_hot(tokens, ns).float().to(pick_device())
    w = sequence_weights(msa1hot).float().to(pick_device())

    seq = msa1hot[0, :, :20]
    prof = profile(msa1hot, w)
    f1d = torch.cat((seq, prof), dim=1)

    f2d_dca = couplings(msa1hot, w) if nrow > 1 else torch.zeros((ncol, ncol, 442)).float()  # bug: tensor_no_device_in_forward
    f2d = torch.cat((
        f1d[:, None, :].repeat(1, ncol, 1),
        f1d[None, :, :].repeat(ncol, 1, 1),
        f2d_dca,
    ), dim=-1)
    return f2d.permute(2, 0, 1)[None]
