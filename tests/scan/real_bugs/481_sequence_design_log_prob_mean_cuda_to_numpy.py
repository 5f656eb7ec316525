# source: https://github.com/ProteinDesignLab/protein_seq_des/pull/4
# kind: numpy_of_device_tensor
# bug: the sampler's mean log-probability was still a CUDA tensor (attached to the graph) when it was stored into a numpy log array, so numpy conversion failed on the GPU; the fix takes a Python scalar with .item() before handing it to numpy.
# split: test23
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidueClassifier(nn.Module):
    def __init__(self, in_ch=16, n_aa=20):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv3d(in_ch, 32, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool3d(1),
        )
        self.head = nn.Linear(32, n_aa)

    def forward(self, grids):
        return self.head(self.conv(grids).flatten(1))


class Sampler:
    def __init__(self, model, n_iters, device):
        self.model = model
        self.device = device
        self.n_iters = n_iters
        self.log_p_trace = np.zeros(n_iters)
        self.seq = None

    def featurize(self, seq):
        return torch.randn(len(seq), 16, 10, 10, 10)

    def step(self, it):
        grids = self.featurize(self.seq).to(self.device)
        logits = self.model(grids)
        log_p = F.log_softmax(logits, dim=-1)
        idx = torch.as_tensor(self.seq, device=self.device)
        log_p_seq = log_p.gather(1, idx[:, None]).squeeze(1)
        log_p_mean = log_p_seq.mean()
        self.log_p_trace[it] = log_p_mean  # bug: numpy_of_device_tensor
        new_aa = torch.distributions.Categorical(logits=logits).sample()
        pos = np.random.randint(len(self.seq))
        self.seq[pos] = int(new_aa[pos])

    def run(self, init_seq):
        self.seq = list(init_seq)
        for it in range(self.n_iters):
            self.step(it)
        return self.seq, self.log_p_trace


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = ResidueClassifier().to(device)
    sampler = Sampler(net, n_iters=5, device=device)
    seq, trace = sampler.run(np.random.randint(0, 20, size=30))
    print(trace)
