# source: https://github.com/jeshraghian/snntorch/pull/188
# kind: hardcoded_cpu
# bug: the spiking-network loss helpers inferred the working device with a check that started from "cpu" and only switched for is_cuda, so the membrane MSE loss built its target tensors on the CPU when the membrane outputs were on MPS (and on plain "cuda" rather than the output's GPU); the maintainer agreed to fix the device inference in the shared prediction check to use the output's own device.
# split: test23
import torch
import torch.nn as nn
import torch.nn.functional as F


class LossFunctions:
    def _prediction_check(self, spk_out):
        device = "cpu"  # bug: hardcoded_cpu
        if spk_out.is_cuda:
            device = "cuda"
        num_steps = spk_out.size(0)
        num_outputs = spk_out.size(-1)
        return device, num_outputs, num_steps


class mse_membrane_loss(LossFunctions):
    def __init__(self, time_var_targets=False, on_target=1.0, off_target=0.0, reduction="mean"):
        self.time_var_targets = time_var_targets
        self.on_target = on_target
        self.off_target = off_target
        self.loss_fn = nn.MSELoss(reduction=reduction)

    def _targets(self, targets, num_classes, device):
        one_hot = F.one_hot(targets, num_classes).float()
        tgt = one_hot * self.on_target + (1 - one_hot) * self.off_target
        return tgt.to(device)

    def __call__(self, mem_out, targets):
        device, num_classes, num_steps = self._prediction_check(mem_out)
        loss = torch.zeros(1, dtype=mem_out.dtype, device=device)
        if self.time_var_targets:
            for step in range(num_steps):
                loss = loss + self.loss_fn(mem_out[step], self._targets(targets[step], num_classes, device))
        else:
            tgt = self._targets(targets, num_classes, device)
            for step in range(num_steps):
                loss = loss + self.loss_fn(mem_out[step], tgt)
        return loss / num_steps


class LeakyNet(nn.Module):
    def __init__(self, n_in=100, n_out=10, beta=0.9):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.beta = beta

    def forward(self, x):
        mem = torch.zeros(x.size(1), self.fc.out_features, device=x.device)
        mems = []
        for t in range(x.size(0)):
            mem = self.beta * mem + self.fc(x[t])
            mems.append(mem)
        return torch.stack(mems)


if __name__ == "__main__":
    device = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
    net = LeakyNet().to(device)
    x = torch.rand(25, 16, 100, device=device)
    y = torch.randint(0, 10, (16,), device=device)
    print(mse_membrane_loss()(net(x), y))
