# source: https://github.com/dazhangyu123/ACMIL/pull/14
# kind: host_alloc_per_step
# bug: the multi-branch gated-attention MIL model built its random attention-masking tensor on every training forward with torch.ones(k, n) on the host and then copied it to the attention's device, causing heavy CPU usage and a host-to-device copy per bag; the fix allocates the mask directly on the attention tensor's device.
# split: test20
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedAttention(nn.Module):
    def __init__(self, dim=256, hidden=128, n_branches=5):
        super().__init__()
        self.a = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh())
        self.b = nn.Sequential(nn.Linear(dim, hidden), nn.Sigmoid())
        self.c = nn.Linear(hidden, n_branches)

    def forward(self, h):
        return self.c(self.a(h) * self.b(h)).t()


class ACMILGA(nn.Module):
    def __init__(self, in_dim=512, dim=256, n_classes=2, n_token=5, n_masked_patch=10, mask_drop=0.6):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU())
        self.attention = GatedAttention(dim, 128, n_token)
        self.classifiers = nn.ModuleList([nn.Linear(dim, n_classes) for _ in range(n_token)])
        self.slide_classifier = nn.Linear(dim, n_classes)
        self.n_masked_patch = n_masked_patch
        self.mask_drop = mask_drop

    def forward(self, x):
        h = self.fc(x[0])
        A = self.attention(h)
        if self.n_masked_patch > 0 and self.training:
            k, n = A.shape
            n_masked = min(self.n_masked_patch, n)
            _, indices = torch.topk(A, n_masked, dim=-1)
            rand_selected = torch.argsort(torch.rand(*indices.shape, device=A.device), dim=-1)[:, :int(n_masked * self.mask_drop)]
            masked_indices = indices[torch.arange(indices.shape[0], device=A.device).unsqueeze(-1), rand_selected]
            random_mask = torch.ones(k, n).to(A.device)  # bug: host_alloc_per_step
            random_mask.scatter_(-1, masked_indices, 0)
            A = A.masked_fill(random_mask == 0, -1e9)
        A = F.softmax(A, dim=1)
        afeat = A @ h
        branch_logits = torch.stack([cls(afeat[i]) for i, cls in enumerate(self.classifiers)])
        bag_feat = A.mean(0, keepdim=True) @ h
        return branch_logits, self.slide_classifier(bag_feat), A


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = ACMILGA().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    for _ in range(20):
        bag = torch.randn(1, 3000, 512, device=device)
        label = torch.randint(0, 2, (1,), device=device)
        branch_logits, slide_logits, _ = model(bag)
        loss = F.cross_entropy(slide_logits, label) + F.cross_entropy(branch_logits, label.repeat(5))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
