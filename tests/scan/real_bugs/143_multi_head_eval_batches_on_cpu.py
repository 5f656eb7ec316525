# source: https://github.com/center-for-humans-and-machines/transformer-heads/issues/22
# also: https://github.com/center-for-humans-and-machines/transformer-heads/commit/7a1b562ae931213e45907e1b3c375a4cdc8b0af6
# kind: eval_batch_not_moved
# bug: the head-wise evaluation helper iterated a torch-formatted dataset (CPU tensors) and passed each batch straight to the model loaded on the GPU; the maintainer's fix moves every batch entry to model.device.
# split: test4
from collections import defaultdict

import torch
from torch.utils.data import DataLoader
from tqdm import tqdm


@torch.no_grad()
def evaluate_heads(model, dataset, collator, batch_size=8):
    dataset = dataset.with_format(type="torch")
    loader = DataLoader(dataset, batch_size=batch_size, collate_fn=collator)
    per_head = defaultdict(list)
    totals = []
    model.eval()
    for batch in tqdm(loader, desc="Evaluating"):
        out = model(**batch)  # bug: eval_batch_not_moved
        for name, loss in out.loss_by_head.items():
            per_head[name].append(float(loss.item()))
        totals.append(float(out.loss.item()))
    summary = {name: sum(v) / len(v) for name, v in per_head.items()}
    summary["total"] = sum(totals) / len(totals)
    return summary


def train_then_eval(model, trainer, eval_set, collator):
    trainer.train()
    return evaluate_heads(model, eval_set, collator)
