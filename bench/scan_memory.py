#!/usr/bin/env python3
"""Benchmark: peak memory of `gpudoctor scan` on one very large .py file, against CPython's own
parser (ast.parse) on the same file as the peer.

  bench/scan_memory.py [--gpudoctor BUILD/gpudoctor] [--mb 30] [--runs 5]

Files above 32 MiB are skipped by scan (the default max-file-mb), so keep --mb below that.

The file is generated: a small training script written for this benchmark, repeated with renamed
functions until it reaches --mb megabytes. Reports the median peak RSS of --runs runs (GNU time's
%M) of each, as bytes of memory per byte of input, and the ratio gpudoctor / ast.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

TEMPLATE = '''
import torch
from torch import nn
from torch.utils.data import DataLoader


class Net{n}(nn.Module):
    def __init__(self, width=256):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(784, width), nn.ReLU(), nn.Linear(width, 10))

    def forward(self, x):
        mask = torch.ones(x.shape[0])
        return self.body(x.flatten(1)) * mask[:, None]


def train_{n}(dataset, epochs=3, device="cuda"):
    model = Net{n}().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scaler = torch.cuda.amp.GradScaler()
    loader = DataLoader(dataset, batch_size=128, shuffle=True)
    for epoch in range(epochs):
        for images, labels in loader:
            images = images.to(device)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = nn.functional.cross_entropy(model(images), labels.to(device))
            opt.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            print(f"epoch {{epoch}} loss {{loss.item():.4f}}")
    return model
'''


def peak_kb(cmd):
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f"{cmd[0]} failed ({r.returncode}): {r.stderr[-2000:]}")
    return int(r.stderr.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", default=os.path.join(HERE, "..", "build", "gpudoctor"))
    ap.add_argument("--mb", type=float, default=30.0)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    if not os.path.exists("/usr/bin/time"):
        sys.exit("needs GNU time (/usr/bin/time, Debian package time)")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "big.py")
        with open(path, "w") as f:
            size, n = 0, 0
            while size < a.mb * 1e6:
                chunk = TEMPLATE.format(n=n)
                f.write(chunk)
                size += len(chunk)
                n += 1
        mb = size / 1e6
        gpd, ast = [], []
        for _ in range(a.runs):
            gpd.append(peak_kb([a.gpudoctor, "scan", path]))
            ast.append(peak_kb([sys.executable, "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())", path]))
        g, p = statistics.median(gpd) * 1024, statistics.median(ast) * 1024
        print(f"file: {mb:.1f} MB generated .py ({n} scripts), median peak RSS of {a.runs} runs")
        print(f"gpudoctor scan : {g / 1e6:7.1f} MB = {g / size:5.1f} bytes per input byte")
        print(f"python ast     : {p / 1e6:7.1f} MB = {p / size:5.1f} bytes per input byte")
        print(f"ratio gpudoctor / ast: {g / p:.2f}")


if __name__ == "__main__":
    main()
