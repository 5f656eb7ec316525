# source: https://github.com/pykeen/pykeen/pull/936
# also: https://github.com/pykeen/pykeen/commit/0434876f5761b8117da9f2441db9a2ac7b057671
# kind: inputs_not_moved
# bug: in the sLCWA training step the positive and negative triples were sent to the model's device, but the negative sampler's boolean `positive_filter` stayed on the CPU and was handed to the loss as `batch_filter`, where it masked CUDA scores (CrossEntropyLoss / NSSALoss failed with a device mismatch); the fix moves the filter to `model.device` after using it to filter the (still CPU) negatives.
# split: test13
import torch
import torch.nn as nn


class DistMult(nn.Module):
    def __init__(self, num_entities, num_relations, dim=200):
        super().__init__()
        self.ent = nn.Embedding(num_entities, dim)
        self.rel = nn.Embedding(num_relations, dim)

    @property
    def device(self):
        return self.ent.weight.device

    def score_hrt(self, hrt):
        return (self.ent(hrt[:, 0]) * self.rel(hrt[:, 1]) * self.ent(hrt[:, 2])).sum(-1, keepdim=True)


def softmax_loss(positive_scores, negative_scores, batch_filter=None):
    if batch_filter is not None:
        dense = torch.full(batch_filter.shape, float("-inf"), device=negative_scores.device)
        dense[batch_filter] = negative_scores
        negative_scores = dense
    logits = torch.cat([positive_scores, negative_scores], dim=-1)
    return -logits.log_softmax(dim=-1)[:, 0].mean()


def process_batch(model, batch, start, stop):
    positive_batch, negative_batch, positive_filter = batch
    positive_batch = positive_batch[start:stop].to(device=model.device)
    negative_batch = negative_batch[start:stop]
    if positive_filter is not None:
        positive_filter = positive_filter[start:stop]
        negative_batch = negative_batch[positive_filter]
    negative_batch = negative_batch.view(-1, 3).to(model.device)
    positive_scores = model.score_hrt(positive_batch)
    negative_scores = model.score_hrt(negative_batch).view(-1)
    return softmax_loss(positive_scores, negative_scores, batch_filter=positive_filter)  # bug: inputs_not_moved


def train(model, loader, epochs=10, device="cuda"):
    model = model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for batch in loader:
            loss = process_batch(model, batch, 0, batch[0].shape[0])
            opt.zero_grad()
            loss.backward()
            opt.step()
