# source: https://github.com/GarrettJenkinson/condor_pytorch/pull/2
# also: https://github.com/GarrettJenkinson/condor_pytorch/commit/444e098afbc81157e623a56acc37d53183171780
# kind: tensor_no_device_in_forward
# bug: the CONDOR ordinal-regression negative log-likelihood prepended a column of ones to the shifted level labels with `torch.ones((labels.shape[0], 1))` and no device, so with CUDA logits and labels the torch.cat inside the loss mixed a CPU and a CUDA tensor; the fix creates the ones on labels.device (and the PR also gave the label-to-levels helper the label's device).
# split: test10
import torch
import torch.nn as nn
import torch.nn.functional as F


def condor_nll(logits, levels, reduction="mean"):
    if logits.shape != levels.shape:
        raise ValueError("logits and levels must have the same shape")
    pi_levels = torch.cat([torch.ones((levels.shape[0], 1)), levels[:, :-1]], dim=1)  # bug: tensor_no_device_in_forward
    zeros = torch.zeros_like(logits)
    relu_logits = torch.where(logits >= zeros, logits, zeros)
    neg_abs = torch.where(logits >= zeros, -logits, logits)
    per_level = relu_logits - logits * levels + torch.log1p(torch.exp(neg_abs))
    per_level = torch.where(pi_levels > zeros, per_level, zeros)
    loss = per_level.sum(dim=1)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def labels_to_levels(labels, num_classes):
    ranks = torch.arange(num_classes - 1, device=labels.device)
    return (ranks[None, :] < labels[:, None]).float()


class OrdinalHead(nn.Module):
    def __init__(self, in_features, num_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_features, 64), nn.ReLU())
        self.out = nn.Linear(64, num_classes - 1)

    def forward(self, x):
        return self.out(self.body(x))


def train(model, loader, num_classes, device="cuda", epochs=5):
    model = model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = condor_nll(model(x), labels_to_levels(y, num_classes))
            opt.zero_grad()
            loss.backward()
            opt.step()
