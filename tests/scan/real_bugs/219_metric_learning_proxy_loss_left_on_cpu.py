# source: https://github.com/KevinMusgrave/pytorch-metric-learning/issues/139
# kind: model_not_moved
# bug: ProxyAnchorLoss keeps its class proxies as an `nn.Parameter` of the loss module, and the training script moved the trunk and the embedder to CUDA but built the loss without moving it, so the similarity between the CUDA embeddings and the CPU proxies failed in `compute_loss`; the maintainer's fix (released in the dev version) moves the loss parameters to the embeddings' device, and the advice was to call `.to(device)` on such losses.
# split: test9
import torch
import torch.nn as nn
import torchvision


class ProxyAnchorLoss(nn.Module):
    def __init__(self, num_classes, embedding_size, margin=0.1, alpha=32):
        super().__init__()
        self.proxies = nn.Parameter(torch.randn(num_classes, embedding_size))
        nn.init.kaiming_normal_(self.proxies, mode="fan_out")
        self.num_classes = num_classes
        self.margin = margin
        self.alpha = alpha

    def forward(self, embeddings, labels):
        cos = nn.functional.normalize(embeddings) @ nn.functional.normalize(self.proxies).t()
        pos_mask = nn.functional.one_hot(labels, self.num_classes).float()
        neg_mask = 1 - pos_mask
        with_pos = (pos_mask.sum(dim=0) != 0).sum()
        pos = torch.log1p((torch.exp(-self.alpha * (cos - self.margin)) * pos_mask).sum(dim=0)).sum() / with_pos
        neg = torch.log1p((torch.exp(self.alpha * (cos + self.margin)) * neg_mask).sum(dim=0)).sum() / self.num_classes
        return pos + neg


def main(train_loader, num_classes, embedding_size=128, epochs=20):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    trunk = torchvision.models.resnet18(weights="DEFAULT")
    trunk_out = trunk.fc.in_features
    trunk.fc = nn.Identity()
    trunk = trunk.to(device)
    embedder = nn.Linear(trunk_out, embedding_size).to(device)

    loss_func = ProxyAnchorLoss(num_classes, embedding_size)  # bug: model_not_moved
    opt = torch.optim.Adam(
        list(trunk.parameters()) + list(embedder.parameters()) + list(loss_func.parameters()), lr=1e-4
    )
    for _ in range(epochs):
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            loss = loss_func(embedder(trunk(images)), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
