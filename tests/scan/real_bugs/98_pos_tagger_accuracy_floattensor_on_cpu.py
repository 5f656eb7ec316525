# source: https://github.com/bentrevett/pytorch-pos-tagging/pull/5
# also: https://github.com/bentrevett/pytorch-pos-tagging/commit/321c6014deb6b8e0997e736e4d76c88783fc8a9e
# kind: tensor_no_device_in_forward
# bug: (notebook) the tagging tutorial's per-batch accuracy divided the CUDA count of correct tags by torch.FloatTensor([n]), a CPU tensor, which fails with "Expected all tensors to be on the same device" once the model and batches are on the GPU; the fix moved the divisor to device.
# split: test2
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Tagger(nn.Module):
    def __init__(self, encoder, n_tags, p=0.25):
        super().__init__()
        self.encoder = encoder
        self.fc = nn.Linear(encoder.config.hidden_size, n_tags)
        self.drop = nn.Dropout(p)

    def forward(self, ids):
        h = self.drop(self.encoder(ids.permute(1, 0))[0]).permute(1, 0, 2)
        return self.fc(h)


def tag_accuracy(logits, gold, pad_idx):
    guess = logits.argmax(dim=1, keepdim=True)
    keep = (gold != pad_idx).nonzero()
    hits = guess[keep].squeeze(1).eq(gold[keep])
    return hits.sum() / torch.FloatTensor([gold[keep].shape[0]])  # bug: tensor_no_device_in_forward


def run_epoch(model, batches, opt, crit, pad_idx):
    model.train()
    total = 0.0
    for ids, tags in batches:
        ids, tags = ids.to(device), tags.to(device)
        opt.zero_grad()
        logits = model(ids).view(-1, model.fc.out_features)
        tags = tags.view(-1)
        loss = crit(logits, tags)
        acc = tag_accuracy(logits, tags, pad_idx)
        loss.backward()
        opt.step()
        total += acc.item()
    return total / max(len(batches), 1)
