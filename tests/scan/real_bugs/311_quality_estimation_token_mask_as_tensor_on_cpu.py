# source: https://github.com/Unbabel/OpenKiwi/pull/44
# also: https://github.com/Unbabel/OpenKiwi/commit/8d1ce7f45558b626bce4052138d029b10e73148f
# kind: tensor_no_device_in_forward
# bug: the quality-estimation model's `get_mask` started from `torch.ones_like(input)` (on the batch's device) but and-ed it with `torch.as_tensor(input != pad_id, dtype=torch.uint8)` built without a device, which the PyTorch of the time produced on the CPU, so the in-place `mask &= ...` crashed when training on a GPU (issue #43); the merged fix passes `device=mask.device`.
# split: test14
import torch
import torch.nn as nn

PAD, START, STOP, UNK = "<pad>", "<s>", "</s>", "<unk>"


class Vocab:
    def __init__(self, tokens):
        self.stoi = {t: i for i, t in enumerate([UNK, PAD, START, STOP] + list(tokens))}


class WordTagger(nn.Module):
    def __init__(self, vocabs, dim=128, n_tags=2):
        super().__init__()
        self.vocabs = vocabs
        self.embed = nn.Embedding(len(vocabs["target"].stoi), dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, n_tags)

    def get_mask(self, batch, side):
        input_tensor = batch[side]
        mask = torch.ones_like(input_tensor, dtype=torch.uint8)
        unk_id = self.vocabs[side].stoi.get(UNK)
        for pad in (PAD, START, STOP):
            pad_id = self.vocabs[side].stoi.get(pad)
            if pad_id is not None and pad_id != unk_id:
                mask &= torch.as_tensor(input_tensor != pad_id, dtype=torch.uint8)  # bug: tensor_no_device_in_forward
        return mask

    def forward(self, batch):
        h, _ = self.rnn(self.embed(batch["target"]))
        return self.out(h)

    def loss(self, batch):
        logits = self.forward(batch)
        mask = self.get_mask(batch, "target").bool()
        return nn.functional.cross_entropy(logits[mask], batch["tags"][mask])


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = WordTagger({"target": Vocab(["a", "b", "c"])}).to(device)
    batch = {"target": torch.randint(0, 7, (4, 12), device=device),
             "tags": torch.randint(0, 2, (4, 12), device=device)}
    model.loss(batch).backward()
