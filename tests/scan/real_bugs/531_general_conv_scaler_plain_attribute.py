# source: https://github.com/pyg-team/pytorch_geometric/pull/7484
# kind: attribute_not_buffer
# bug: the general message-passing convolution with dot-product attention stored its sqrt(out_channels) scaling constant as a plain tensor attribute (self.scaler = torch.sqrt(torch.tensor(...))), so conv.to(device) / model.cuda() left it on the CPU while the attention logits it divides were on the GPU; the fix registers it with register_buffer so it follows the module.
# split: test25
import torch
import torch.nn.functional as F
from torch import nn


def segment_softmax(src, index, num_nodes):
    src = src - src.max()
    exp = src.exp()
    denom = torch.zeros(num_nodes, src.size(1), device=src.device).index_add_(0, index, exp)
    return exp / (denom[index] + 1e-16)


class GeneralConv(nn.Module):
    def __init__(self, in_channels, out_channels, heads=1, attention=True, attention_type="dot_product"):
        super().__init__()
        self.out_channels = out_channels
        self.heads = heads
        self.attention = attention
        self.attention_type = attention_type
        self.lin_msg = nn.Linear(in_channels, out_channels * heads)
        self.lin_self = nn.Linear(in_channels, out_channels)
        if attention:
            if attention_type == "additive":
                self.att_msg = nn.Parameter(torch.randn(1, heads, out_channels))
            elif attention_type == "dot_product":
                self.scaler = torch.sqrt(torch.tensor(out_channels, dtype=torch.float))  # bug: attribute_not_buffer
            else:
                raise ValueError(attention_type)

    def forward(self, x, edge_index):
        src, dst = edge_index
        x_j = self.lin_msg(x[src]).view(-1, self.heads, self.out_channels)
        x_i = self.lin_msg(x[dst]).view(-1, self.heads, self.out_channels)
        if self.attention_type == "dot_product":
            alpha = (x_i * x_j).sum(dim=-1) / self.scaler
        else:
            alpha = (x_j * self.att_msg).sum(dim=-1)
        alpha = segment_softmax(F.leaky_relu(alpha, 0.2), dst, x.size(0)).unsqueeze(-1)
        out = torch.zeros(x.size(0), self.heads, self.out_channels, device=x.device)
        out.index_add_(0, dst, x_j * alpha)
        return out.mean(dim=1) + self.lin_self(x)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    conv = GeneralConv(16, 32, heads=2).to(dev)
    x = torch.randn(10, 16, device=dev)
    ei = torch.randint(0, 10, (2, 40), device=dev)
    print(conv(x, ei).shape)
