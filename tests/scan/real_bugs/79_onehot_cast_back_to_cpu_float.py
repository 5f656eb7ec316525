# source: https://github.com/akshat0123/GPT-1/pull/4
# also: https://github.com/akshat0123/GPT-1/commit/7ffcab02a4a07204c0d002f5dea6150c9d8f575c
# kind: hardcoded_cpu
# bug: the training loop moved the token batch to the decoder's device, one-hot encoded it and then cast it with .type(torch.FloatTensor), which silently returned a CPU tensor; the fix cast to torch.cuda.FloatTensor when the decoder was on the GPU.
# split: dev2
import torch
import torch.nn.functional as F

from decoder import TinyDecoder


def train_epoch(dec: TinyDecoder, loader, opt, vocab: int):
    total = 0.0
    for x, y in loader:
        opt.zero_grad()
        x = x.to(device=dec.device)
        x = F.one_hot(x, vocab)
        x = x.type(torch.FloatTensor)  # bug: hardcoded_cpu
        y = y.to(device=dec.device)
        logits = dec(x)
        loss = F.cross_entropy(logits.reshape(-1, vocab), y.reshape(-1))
        loss.backward()
        opt.step()
        total += loss.item()
    return total / max(len(loader), 1)


if __name__ == "__main__":
    d = TinyDecoder(vocab=30000, device="cuda")
    train_epoch(d, [], torch.optim.Adam(d.parameters()), 30000)
