# source: https://github.com/kitzeslab/opensoundscape/pull/201
# kind: to_result_discarded
# bug: The train and predict helpers called X.cuda() on each batch without keeping the returned copy, so the batch stayed on the CPU while the model was on the GPU; the fix writes X = X.cuda().
# split: test
import torch


def predict(model, loader, use_cuda=True):
    if use_cuda:
        model = model.cuda()
    model.eval()
    scores = []
    with torch.no_grad():
        for spec, _ in loader:
            if use_cuda:
                spec.cuda()  # bug: to_result_discarded
            logits = model(spec)
            scores.append(torch.sigmoid(logits).cpu())
    return torch.cat(scores)


def train(model, loader, opt, use_cuda=True):
    if use_cuda:
        model = model.cuda()
    for spec, label in loader:
        if use_cuda:
            spec.cuda()  # bug: to_result_discarded
            label.cuda()  # bug: to_result_discarded
        loss = torch.nn.functional.binary_cross_entropy_with_logits(model(spec), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
