# source: https://github.com/leaderj1001/Stand-Alone-Self-Attention/issues/2
# also: https://github.com/leaderj1001/Stand-Alone-Self-Attention/commit/11a5ea31625b6d07b8abb53b69c91b95eedf8e44
# kind: module_in_forward
# bug: the local self-attention convolution built its relative-position embeddings as fresh nn.Parameter(torch.randn(...)) on the CPU inside forward and copied them to the input's device on every call, so they were re-randomised and transferred each step and never trained; the fix creates them once in __init__ as registered parameters.
# split: test19
import torch
import torch.nn as nn
import torch.nn.functional as F


class LocalAttentionConv(nn.Module):
    def __init__(self, cin, cout, k=3, padding=1):
        super().__init__()
        self.cout, self.k, self.padding = cout, k, padding
        self.q = nn.Conv2d(cin, cout, 1, bias=False)
        self.kc = nn.Conv2d(cin, cout, 1, bias=False)
        self.v = nn.Conv2d(cin, cout, 1, bias=False)

    def forward(self, x):
        b, _, h, w = x.shape
        px = F.pad(x, [self.padding] * 4)
        q = self.q(x)
        k = self.kc(px).unfold(2, self.k, 1).unfold(3, self.k, 1).reshape(b, self.cout, h, w, -1)
        v = self.v(px).unfold(2, self.k, 1).unfold(3, self.k, 1).reshape(b, self.cout, h, w, -1)
        rel_w = nn.Parameter(torch.randn(self.cout, w)).to(x)  # bug: module_in_forward
        rel_h = nn.Parameter(torch.randn(self.cout, h)).to(x)
        bias = torch.einsum("bchw,cw->bchw", q, rel_w) + torch.einsum("bchw,ch->bchw", q, rel_h)
        att = F.softmax(q.unsqueeze(-1) * k + bias.unsqueeze(-1), dim=-1)
        return (att * v).sum(-1)


class SASANet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 32, 3, padding=1)
        self.att1 = LocalAttentionConv(32, 32)
        self.att2 = LocalAttentionConv(32, 64)
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        x = F.relu(self.stem(x))
        x = F.relu(self.att2(F.relu(self.att1(x))))
        return self.fc(x.mean((2, 3)))


if __name__ == "__main__":
    net = SASANet().cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(3):
        x = torch.randn(8, 3, 32, 32, device="cuda")
        loss = F.cross_entropy(net(x), torch.randint(0, 10, (8,), device="cuda"))
        opt.zero_grad()
        loss.backward()
        opt.step()
