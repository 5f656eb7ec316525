# source: https://github.com/styalai/xLSTM-pytorch/issues/2
# also: https://github.com/styalai/xLSTM-pytorch/commit/82ff081eeb42cf5a1c0f54600e1442cd77afee18
# kind: attribute_not_buffer
# bug: The recurrent blocks kept their carried states as plain tensor attributes created on an example input's device, so model.to(device) (and Lightning's automatic placement) never moved them; the fix turns them into registered buffers.
# split: test
import torch
import torch.nn as nn


class GatedMemoryBlock(nn.Module):
    def __init__(self, width, x_example):
        super().__init__()
        self.gates = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.reset_state(x_example)

    def reset_state(self, x_example):
        self.cell = torch.zeros(1, 1, x_example.shape[2], device=x_example.device)  # bug: attribute_not_buffer
        self.norm = torch.zeros(1, 1, x_example.shape[2], device=x_example.device)  # bug: attribute_not_buffer

    def forward(self, x):
        i, f, o = torch.sigmoid(self.gates(x)).chunk(3, dim=-1)
        self.cell = f * self.cell + i * torch.tanh(x)
        self.norm = f * self.norm + i
        h = o * self.cell / self.norm.clamp(min=1e-6)
        return self.proj(h)


if __name__ == "__main__":
    block = GatedMemoryBlock(32, torch.zeros(1, 1, 32))
    block = block.to("cuda")
    print(block(torch.randn(4, 10, 32, device="cuda")).shape)
