# source: https://github.com/davmacario/MDI-LLM/issues/21
# also: https://github.com/davmacario/MDI-LLM/commit/0b8b2044d040f278ce0a859f51fb973b16d9f493
# kind: other
# bug: the GPT training batch loader took a `device` argument and moved the targets to it, but for any CUDA device it moved the pinned input contexts with a literal `.to("cuda", non_blocking=True)`, i.e. to the default GPU, so training on "cuda:1" fed the model (on cuda:1) inputs from cuda:0; the fix passes `device` for both tensors.
# split: test12
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_batch(dataset, batch_size, device, block_size):
    ix = torch.randint(len(dataset) - block_size, (batch_size,))
    if isinstance(dataset, torch.Tensor):
        x = torch.stack([dataset[i : i + block_size] for i in ix])
        y = torch.stack([dataset[i + 1 : i + 1 + block_size] for i in ix])
    elif isinstance(dataset, np.ndarray):
        x = torch.stack([torch.from_numpy(dataset[i : i + block_size].astype(np.int64)) for i in ix])
        y = torch.stack([torch.from_numpy(dataset[i + 1 : i + 1 + block_size].astype(np.int64)) for i in ix])
    else:
        raise TypeError(f"unsupported data type {type(dataset)}")
    if "cuda" in device:
        x = x.pin_memory().to("cuda", non_blocking=True)  # bug: other
        y = y.pin_memory().to(device, non_blocking=True)
    else:
        x, y = x.to(device), y.to(device)
    return x, y


class TinyGPT(nn.Module):
    def __init__(self, vocab=50304, dim=384, layers=6, block_size=256):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.register_buffer("pos", torch.arange(block_size))
        self.pos_emb = nn.Embedding(block_size, dim)
        layer = nn.TransformerEncoderLayer(dim, 6, 4 * dim, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx, targets=None):
        t = idx.shape[1]
        h = self.tok(idx) + self.pos_emb(self.pos[:t])
        mask = nn.Transformer.generate_square_subsequent_mask(t, device=idx.device)
        logits = self.head(self.blocks(h, mask=mask, is_causal=True))
        loss = None if targets is None else F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss


def train(data, device="cuda:1", iters=1000, batch_size=12, block_size=256):
    model = TinyGPT(block_size=block_size).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(iters):
        x, y = get_batch(data, batch_size, device, block_size)
        _, loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return model
