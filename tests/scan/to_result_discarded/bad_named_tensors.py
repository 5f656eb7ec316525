import torch


def train_step(model, x, labels, device):
    model.to(device)  # a module moves in place: fine
    x.cuda()  # expect: code.to_result_discarded
    labels.to(device)  # expect: code.to_result_discarded
    return torch.nn.functional.cross_entropy(model(x), labels)
