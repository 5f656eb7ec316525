# The training function moves each batch through a helper; the scoring function walks the same
# kind of batches unmoved, and its caller moved the model first.
import torch


def to_device(batch, device):
    return {k: v.to(device) for k, v in batch.items()}


def score(model, batches):
    model.eval()
    hits = 0
    with torch.no_grad():
        for batch in batches:
            out = model(**batch)  # expect: code.inputs_not_moved
            hits += int(out.argmax(-1).eq(batch["label"]).sum())
    return hits


def train_epoch(model, batches, opt, device):
    for batch in batches:
        batch = to_device(batch, device)
        loss = model(**batch).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


def evaluate_checkpoint(model, batches, gpu=0):
    model.cuda(gpu)
    return score(model, batches)
