# source: https://github.com/Jamie-Stirling/RetNet/issues/16
# also: https://github.com/Jamie-Stirling/RetNet/commit/9c92f489cb868b4ff5c5102bae11033c0a5857bd
# kind: tensor_no_device_in_forward
# bug: the parallel retention layer's forward built its causal decay matrix `D` from `torch.arange(sequence_length)` in a helper, so `D` was always a CPU tensor and multiplying it with the CUDA `Q @ K^T` scores failed when the model was trained on a GPU; the fix moves `D` to the device of the layer's `W_Q` parameter.
# split: test11
import torch
import torch.nn as nn


class SimpleRetention(nn.Module):
    def __init__(self, hidden_size, gamma, head_size=None):
        super().__init__()
        head_size = head_size or hidden_size
        self.gamma = gamma
        self.W_Q = nn.Parameter(torch.randn(hidden_size, head_size) / hidden_size)
        self.W_K = nn.Parameter(torch.randn(hidden_size, head_size) / hidden_size)
        self.W_V = nn.Parameter(torch.randn(hidden_size, head_size) / hidden_size)

    def _decay(self, seq_len):
        n = torch.arange(seq_len).unsqueeze(1)
        m = torch.arange(seq_len).unsqueeze(0)
        D = (self.gamma ** (n - m)) * (n >= m).float()
        D[D != D] = 0
        return D

    def forward(self, X):
        D = self._decay(X.shape[1])  # bug: tensor_no_device_in_forward
        Q = X @ self.W_Q
        K = X @ self.W_K
        V = X @ self.W_V
        return ((Q @ K.transpose(1, 2)) * D.unsqueeze(0)) @ V


class MultiScaleRetention(nn.Module):
    def __init__(self, hidden_size, heads):
        super().__init__()
        head_size = hidden_size // heads
        gammas = 1 - torch.exp(torch.linspace(-5.0, -6.0, heads))
        self.heads = nn.ModuleList([SimpleRetention(hidden_size, g.item(), head_size) for g in gammas])
        self.out = nn.Linear(hidden_size, hidden_size)
        self.norm = nn.GroupNorm(heads, hidden_size)

    def forward(self, X):
        y = torch.cat([h(X) for h in self.heads], dim=-1)
        y = self.norm(y.reshape(-1, y.shape[-1])).reshape(y.shape)
        return self.out(y)


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    layer = MultiScaleRetention(64, 4).to(device)
    x = torch.randn(2, 128, 64, device=device)
    print(layer(x).shape)
