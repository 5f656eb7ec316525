import torch


def one_hot(labels, classes):
    out = torch.zeros(len(labels), classes, device=labels.device)
    return out.scatter(1, labels.unsqueeze(-1), 1.0)


def pick(x, rank):
    # An explicit index is a choice, not the default GPU.
    return torch.device(f"cuda:{rank}") if x.is_cuda else torch.device("cpu")


def backend():
    return "cuda" if torch.cuda.is_available() else "cpu"
