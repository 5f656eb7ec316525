# source: https://github.com/rish-16/tokenlearner-pytorch/issues/4
# kind: model_not_moved
# bug: TokenLearner kept its per-token spatial attention blocks in a plain Python list, so they were not registered as submodules and model.to("cuda") left their convolution weights on the CPU while the inputs were on the GPU; the fix wraps the list in nn.ModuleList.
# split: test20
import torch
import torch.nn as nn


class SpatialAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(2, 1, kernel_size=1), nn.BatchNorm2d(1), nn.ReLU())

    def forward(self, x):
        b, h, w, c = x.shape
        x = x.permute(0, 3, 1, 2)
        pooled = torch.cat([x.amax(dim=1, keepdim=True), x.mean(dim=1, keepdim=True)], dim=1)
        weights = torch.sigmoid(self.conv(pooled))
        return (x * weights).mean(dim=(-2, -1))


class TokenLearner(nn.Module):
    def __init__(self, num_tokens):
        super().__init__()
        self.num_tokens = num_tokens
        self.tokenizers = [SpatialAttention() for _ in range(num_tokens)]  # bug: model_not_moved

    def forward(self, x):
        tokens = [tok(x) for tok in self.tokenizers]
        return torch.stack(tokens, dim=1)


class TinyViTWithTokenLearner(nn.Module):
    def __init__(self, channels=32, num_tokens=8, num_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, channels, 4, stride=4)
        self.learner = TokenLearner(num_tokens)
        self.head = nn.Linear(channels, num_classes)

    def forward(self, img):
        feats = self.stem(img).permute(0, 2, 3, 1)
        tokens = self.learner(feats)
        return self.head(tokens.mean(dim=1))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyViTWithTokenLearner().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(4, 3, 64, 64, device=device)
    y = torch.randint(0, 10, (4,), device=device)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(loss.item())
