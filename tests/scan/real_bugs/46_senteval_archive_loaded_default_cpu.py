# source: https://github.com/JohnGiorgi/DeCLUTR/pull/66
# also: https://github.com/JohnGiorgi/DeCLUTR/commit/9ba5cde0a2b4199233ee2d7e3d49bcaa0c5f58e2
# kind: loaded_weights_not_moved
# bug: the SentEval script accepted a cuda_device but loaded the trained archive without passing it, so the loader's default (-1, CPU) applied and the whole evaluation ran on the CPU for hours; the fix passed cuda_device to the archive loader.
# split: test2
import torch
import torch.nn as nn


class SentenceEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(300, 128)

    def forward(self, x):
        return self.proj(x).mean(dim=1)


def open_archive(path, cuda_device=-1):
    model = SentenceEncoder()
    model.load_state_dict(torch.load(path, map_location="cpu"))
    if cuda_device >= 0:
        model.cuda(cuda_device)
    return model.eval()


def run_benchmark(archive_path, batches, cuda_device=0):
    encoder = open_archive(archive_path)  # bug: loaded_weights_not_moved
    outs = []
    with torch.no_grad():
        for x in batches:
            outs.append(encoder(x))
    return torch.cat(outs)
