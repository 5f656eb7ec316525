# source: https://github.com/microsoft/FS-Mol/pull/46
# also: https://github.com/microsoft/FS-Mol/commit/a8f7922769985317bfbb47f14f9d136a79fee0fc
# kind: eval_batch_not_moved
# bug: the prototypical-network trainer moved every training episode to the device, but the evaluation callback built its episode batches and handed them to the CUDA model on the CPU; the fix wraps the eval episode in the same to-device helper with model.device.
# split: test2
import torch
import torch.nn.functional as F

from fewshot.data import episode_from_task, episode_to_device
from fewshot.models import ProtoNet


def run_episode(model, batches, labels, train=False):
    model.train(train)
    total = 0.0
    for feats, y in zip(batches, labels):
        logits = model(feats)
        loss = F.cross_entropy(logits, y)
        if train:
            loss.backward()
        total += loss.detach()
    return total.item() / max(len(batches), 1)


def evaluate(model, tasks, batcher):
    scores = []
    for task in tasks:
        episode = episode_from_task(task, batcher)
        scores.append(run_episode(model, episode.batches, episode.labels))  # bug: eval_batch_not_moved
    return sum(scores) / len(scores)


def train(model: ProtoNet, train_tasks, val_tasks, batcher, device, steps=1000):
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, task in zip(range(steps), train_tasks):
        opt.zero_grad()
        episode = episode_to_device(episode_from_task(task, batcher), device)
        run_episode(model, episode.batches, episode.labels, train=True)
        opt.step()
        if step % 50 == 0:
            print("val loss", evaluate(model, val_tasks, batcher))
