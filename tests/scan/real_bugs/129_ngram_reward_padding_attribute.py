# source: https://github.com/facebookresearch/ReAgent/pull/485
# also: https://github.com/facebookresearch/ReAgent/commit/b7d1ddf8f0d8b8d095e23d0f6f4685575deb78dc
# kind: attribute_not_buffer
# bug: the n-gram synthetic-reward networks kept their zero padding row as a plain torch.zeros attribute, so on a GPU model it was concatenated with CUDA state/action sequences ("Expected all tensors to be on the same device"); the fix moves it to input.device in forward.
# split: test4
import torch
import torch.nn as nn


def shifted_windows(seq, width, pad):
    steps, batch, _ = seq.shape
    parts = []
    for i in range(width):
        shift = i - width // 2
        if shift < 0:
            parts.append(torch.cat((pad.repeat(-shift, batch, 1), seq[: steps + shift]), dim=0))
        elif shift > 0:
            parts.append(torch.cat((seq[shift:], pad.repeat(shift, batch, 1)), dim=0))
        else:
            parts.append(seq)
    return torch.cat(parts, dim=-1)


class NGramRewardMLP(nn.Module):
    def __init__(self, state_dim, action_dim, width=3, hidden=64):
        super().__init__()
        self.width = width
        self.pad = torch.zeros(1, 1, state_dim + action_dim)  # bug: attribute_not_buffer
        self.mlp = nn.Sequential(
            nn.Linear((state_dim + action_dim) * width, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, state, action):
        seq = torch.cat((state, action), dim=-1)
        windows = shifted_windows(seq, self.width, self.pad)
        return self.mlp(windows).squeeze(-1).transpose(0, 1)


if __name__ == "__main__":
    net = NGramRewardMLP(8, 2).cuda()
    s = torch.randn(5, 4, 8, device="cuda")
    a = torch.randn(5, 4, 2, device="cuda")
    print(net(s, a).shape)
