# source: https://github.com/snorkel-team/snorkel/issues/1430
# also: https://github.com/snorkel-team/snorkel/pull/1466
# kind: tensor_no_device_in_forward
# bug: the weak-supervision label model accepted a `device` option and moved itself there in `fit`, but its per-epoch regularised loss built the L2 matrix with `torch.eye(self.d)` (or `torch.diag(torch.from_numpy(l2))`) on the CPU and multiplied it with the CUDA parameters, so GPU training crashed on the first step; the merged fix moves `D` (and the other helper tensors) to the configured device.
# split: test17
import numpy as np
import torch
import torch.nn as nn


class LabelModel(nn.Module):
    def __init__(self, cardinality=2, device="cpu"):
        super().__init__()
        self.cardinality = cardinality
        self.device = device

    def _set_structure(self, L_aug):
        self.n, self.d = L_aug.shape
        self.O = torch.from_numpy(L_aug.T @ L_aug / self.n).float().to(self.device)
        self.mu_init = torch.rand(self.d, self.cardinality)
        self.mu = nn.Parameter(self.mu_init.clone())
        self.P = torch.eye(self.cardinality, device=self.device) / self.cardinality

    def _loss_l2(self, l2=0.0):
        if isinstance(l2, (int, float)):
            D = l2 * torch.eye(self.d)  # bug: tensor_no_device_in_forward
        else:
            D = torch.diag(torch.from_numpy(l2)).type(torch.float32)
        return torch.norm(D @ (self.mu - self.mu_init)) ** 2

    def _loss_mu(self, l2=0.0):
        loss_1 = torch.norm(self.O - self.mu @ self.P @ self.mu.t()) ** 2
        loss_2 = torch.norm(torch.sum(self.mu @ self.P, 1) - torch.diag(self.O)) ** 2
        return loss_1 + loss_2 + self._loss_l2(l2=l2)

    def fit(self, L_train, n_epochs=500, lr=0.01, l2=0.1):
        L_aug = np.concatenate([(L_train == y).astype(np.float64) for y in range(self.cardinality)], axis=1)
        self._set_structure(L_aug)
        self.mu_init = self.mu_init.to(self.device)
        self.to(self.device)
        opt = torch.optim.SGD(self.parameters(), lr=lr)
        for _ in range(n_epochs):
            opt.zero_grad()
            loss = self._loss_mu(l2=l2)
            loss.backward()
            opt.step()
        return self


if __name__ == "__main__":
    L = np.random.randint(-1, 2, size=(10000, 8))
    LabelModel(device="cuda" if torch.cuda.is_available() else "cpu").fit(L)
