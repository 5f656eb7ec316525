# source: https://github.com/galilai-group/stable-pretraining/issues/379
# also: https://github.com/galilai-group/stable-pretraining/commit/8c0a9cb70435d49d4038b06fad9fcfe27407b473
# kind: cpu_accumulator
# bug: the online-queue callback created its shared feature queue (a small module holding a ring buffer) in setup(), after the training module had already been moved to the GPU, and never moved it, so every batch of CUDA embeddings was appended to a CPU buffer and nearest-neighbour lookups mixed a CPU support set with CUDA queries; the fix places the queue on the module's device when it is created or resized.
# split: test18
import torch
import torch.nn as nn
import torch.nn.functional as F


class RingQueue(nn.Module):
    def __init__(self, max_length, dim):
        super().__init__()
        self.max_length = max_length
        self.register_buffer("data", torch.zeros(max_length, dim))
        self.register_buffer("pointer", torch.zeros((), dtype=torch.long))
        self.register_buffer("filled", torch.zeros((), dtype=torch.bool))

    @torch.no_grad()
    def append(self, items):
        n = items.shape[0]
        p = int(self.pointer)
        idx = (torch.arange(n, device=items.device) + p) % self.max_length
        self.data[idx] = items
        self.filled |= (p + n) >= self.max_length
        self.pointer.fill_((p + n) % self.max_length)

    def get(self):
        return self.data if bool(self.filled) else self.data[: int(self.pointer)]


class SSLModule(nn.Module):
    def __init__(self, dim=128):
        super().__init__()
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(), nn.Linear(256, dim))
        self.callback_modules = nn.ModuleDict()

    @property
    def device(self):
        return next(self.parameters()).device


class QueueCallback:
    def __init__(self, key="embedding", length=4096, dim=128):
        self.key, self.length, self.dim = key, length, dim
        self.queue = None

    def setup(self, module):
        self.queue = RingQueue(self.length, self.dim)  # bug: cpu_accumulator
        module.callback_modules[f"queue_{self.key}"] = self.queue

    def on_batch_end(self, outputs):
        self.queue.append(outputs[self.key].detach())


def nn_support(query, queue):
    support = F.normalize(queue.get(), dim=1)
    sim = F.normalize(query, dim=1) @ support.t()
    return support[sim.argmax(dim=1)]


def fit(loader, device="cuda"):
    module = SSLModule().to(device)
    cb = QueueCallback()
    cb.setup(module)
    opt = torch.optim.Adam(module.encoder.parameters(), lr=1e-3)
    for x in loader:
        z = module.encoder(x.to(device))
        cb.on_batch_end({"embedding": z})
        loss = -F.cosine_similarity(z, nn_support(z, cb.queue)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
