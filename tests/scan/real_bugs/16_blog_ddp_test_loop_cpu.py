# source: https://github.com/huggingface/blog/pull/1863
# kind: eval_batch_not_moved
# bug: In the blog's plain-PyTorch training example, the training loop moved each batch to the GPU but the test loop fed CPU data and labels to the CUDA model; the fix moves the test batch and labels to the device too.
# split: test
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(1, 8, 3)
        self.fc = nn.Linear(8 * 26 * 26, 10)

    def forward(self, x):
        return self.fc(F.relu(self.c(x)).flatten(1))


def run(train_loader, test_loader, device="cuda"):
    net = SmallConv().to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
    net.train()
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        opt.zero_grad()
        F.cross_entropy(net(x), y).backward()
        opt.step()

    net.eval()
    right = 0
    with torch.no_grad():
        for x, y in test_loader:
            out = net(x)  # bug: eval_batch_not_moved
            right += (out.argmax(1) == y).sum().item()
    return right
