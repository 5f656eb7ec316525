import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda")
train_ds = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
loader = DataLoader(train_ds, batch_size=64, shuffle=True)  # expect: code.dataloader_single_process
eval_loader = DataLoader(  # num_workers=0 written out: a choice, not reported
    train_ds,
    batch_size=512,
    num_workers=0,
)
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 10)).to(device)
opt = torch.optim.Adam(model.parameters())
for x, y in loader:
    x, y = x.to(device), y.to(device)
    with torch.autocast("cuda"):
        loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    for x, y in eval_loader:
        model(x.to(device))
