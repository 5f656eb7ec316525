# source: https://github.com/Project-MONAI/MONAI/pull/8578
# also: https://github.com/Project-MONAI/MONAI/issues/8577
# kind: module_in_forward
# bug: to avoid a hard-coded input size, the diffusion-model encoder created its nn.Sequential output head lazily inside forward, so the head was built on the CPU after the model had been moved to the GPU and its weights never reached the optimizer; the fix computes the flattened size from an input_shape argument and builds the head in __init__.
# split: test5
import torch
import torch.nn as nn


class DiffusionEncoder(nn.Module):
    def __init__(self, in_channels=1, channels=(32, 64), out_channels=2, temb_dim=128):
        super().__init__()
        self.out_channels = out_channels
        self.time_embed = nn.Sequential(nn.Linear(channels[0], temb_dim), nn.SiLU(), nn.Linear(temb_dim, temb_dim))
        self.conv_in = nn.Conv2d(in_channels, channels[0], 3, padding=1)
        blocks = []
        prev = channels[0]
        for ch in channels:
            blocks.append(nn.Sequential(nn.Conv2d(prev, ch, 3, stride=2, padding=1), nn.SiLU()))
            prev = ch
        self.down = nn.ModuleList(blocks)
        self.out = None

    def forward(self, x, t_emb):
        emb = self.time_embed(t_emb)
        h = self.conv_in(x) + emb[:, : self.conv_in.out_channels, None, None]
        for block in self.down:
            h = block(h)
        h = h.reshape(h.shape[0], -1)
        if self.out is None:
            self.out = nn.Sequential(  # bug: module_in_forward
                nn.Linear(h.shape[1], 512), nn.ReLU(), nn.Dropout(0.1), nn.Linear(512, self.out_channels)
            )
        return self.out(h)


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    enc = DiffusionEncoder().to(dev)
    opt = torch.optim.Adam(enc.parameters(), lr=1e-4)
    logits = enc(torch.randn(4, 1, 64, 64, device=dev), torch.randn(4, 32, device=dev))
