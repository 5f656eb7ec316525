# source: https://github.com/hkchengrex/MMAudio/pull/57
# also: https://github.com/hkchengrex/MMAudio/commit/5968608efa789315b96efa6bf01a679ae75bb0dc
# kind: other
# bug: the distributed latent-extraction script read LOCAL_RANK but never selected that GPU, so every process's bare `.cuda()` calls put its encoders and batches on cuda:0 and all ranks piled onto the first GPU; the merged fix calls `torch.cuda.set_device(local_rank)` before building the models.
# split: test15
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

local_rank = int(os.environ.get("LOCAL_RANK", 0))


class MelEncoder(nn.Module):
    def __init__(self, n_mels=80, latent=20):
        super().__init__()
        self.spec = nn.Conv1d(1, n_mels, kernel_size=1024, stride=256)
        self.enc = nn.Conv1d(n_mels, 2 * latent, kernel_size=3, padding=1)

    def forward(self, wav):
        mean, logstd = self.enc(self.spec(wav.unsqueeze(1)).abs().log1p()).chunk(2, dim=1)
        return mean, logstd.exp()


@torch.inference_mode()
def extract(dataset, out_dir, batch_size=32):
    dist.init_process_group(backend="nccl")
    encoder = MelEncoder().eval().cuda()  # bug: other
    text_proj = nn.Linear(512, 1024).eval().cuda()
    loader = DataLoader(dataset, batch_size=batch_size, sampler=DistributedSampler(dataset, shuffle=False))
    os.makedirs(out_dir, exist_ok=True)
    for i, batch in enumerate(loader):
        wav = batch["waveform"].cuda()
        tokens = batch["text_embedding"].cuda()
        mean, std = encoder(wav)
        feats = text_proj(tokens)
        torch.save({"mean": mean.cpu(), "std": std.cpu(), "text": feats.cpu()},
                   os.path.join(out_dir, f"r{local_rank}_{i:06d}.pt"))
    dist.barrier()
