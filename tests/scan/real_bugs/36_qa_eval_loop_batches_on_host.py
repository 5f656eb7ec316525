# source: https://github.com/allenai/OpenBookQA/pull/5
# also: https://github.com/allenai/OpenBookQA/commit/9ff69a3a65a34e28479aca47472d1ba4c6a277fd
# kind: eval_batch_not_moved
# bug: the prediction-evaluation command loaded the archived model on the requested CUDA device but fed it the iterator's batches as they came (on the CPU); the fix moved every batch to the cuda device inside the loop.
# split: test2
import torch


def to_device(batch, device):
    return {name: tensor.to(device) for name, tensor in batch.items()}


def score_split(model, batches, out_lines):
    model.eval()
    correct = 0
    with torch.no_grad():
        for batch in batches:
            result = model(**batch)  # bug: eval_batch_not_moved
            correct += int(result["label_logits"].argmax(-1).eq(batch["label"]).sum())
            out_lines.append(str(result["label_logits"].tolist()))
    return correct


def fit_one_epoch(model, batches, optimizer, device):
    model.train()
    for batch in batches:
        batch = to_device(batch, device)
        loss = model(**batch)["loss"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def evaluate_archive(archive_model, batches, cuda_device=0):
    archive_model.cuda(cuda_device)
    return score_split(archive_model, batches, [])
