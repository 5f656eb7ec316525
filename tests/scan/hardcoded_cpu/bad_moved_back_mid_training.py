import torch
import torch.nn.functional as F


def save(model, path):
    torch.save(model.cpu().state_dict(), path)  # expect: code.hardcoded_cpu


def train(model, loader, opt, vocab):
    model.cuda()
    for step, (x, y) in enumerate(loader):
        x, y = x.cuda(), y.cuda()
        x = F.one_hot(x, vocab)
        x = x.type(torch.FloatTensor)  # expect: code.hardcoded_cpu
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 1000 == 0:
            save(model, f"step{step}.pt")
