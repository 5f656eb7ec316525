#!/usr/bin/env python3
"""Benchmark: peak memory of `gpudoctor scan` on one very large .py file, against CPython's own
parser (ast.parse) on the same file as the peer.

  bench/scan_memory.py [--gpudoctor BUILD/gpudoctor] [--mb 30] [--runs 5] [--shapes typical,...]

Files above 32 MiB are skipped by scan (the default max-file-mb), so keep --mb below that.

The file is generated, in one of these shapes (--shapes, comma-separated; default all):
  typical     a small training script written for this benchmark, repeated with renamed functions
              (the peer, CPython's ast.parse, is measured on this shape only: on the others it needs
              gigabytes or hits its recursion limit);
  statements  module-level statements only, dense in syntax nodes (no definition to cut at);
  classes     small nn.Module classes, each with a finding or two;
  function    one generated function of --mb megabytes;
  literal     one list literal of numbers of --mb megabytes;
  nested      one expression nested f(f(f(...))) --mb megabytes deep.
Reports the median peak RSS of --runs runs (GNU time's %M) as bytes of memory per byte of input,
and for typical the ratio gpudoctor / ast.
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


def write_shape(f, shape, mb):
    """Writes about mb megabytes of the shape; returns (bytes, description)."""
    size, n = 0, 0
    target = mb * 1e6

    def put(text):
        nonlocal size
        f.write(text)
        size += len(text)

    if shape == "typical":
        while size < target:
            put(TEMPLATE.format(n=n))
            n += 1
        return size, f"{n} scripts"
    put("import torch\n")
    if shape == "statements":
        while size < target:
            put(f"x{n} = torch.tensor([{n}, {n + 1}, {n + 2}]).cuda()\n")
            n += 1
        return size, f"{n} module-level statements"
    if shape == "classes":
        put("from torch import nn\n")
        while size < target:
            put(f"class M{n}(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                f"        self.w = torch.randn(3)\n\n    def forward(self, x):\n        return x * self.w + torch.ones(3)\n")
            n += 1
        return size, f"{n} classes"
    if shape == "function":
        put("def step(model, x):\n")
        while size < target:
            put(f"    y{n} = model(x)\n")
            n += 1
        return size, f"one function of {n} lines"
    if shape == "literal":
        put("TABLE = [\n")
        while size < target:
            put("    " + ", ".join(["0.1234567"] * 12) + ",\n")
            n += 12
        put("]\n")
        return size, f"one list of {n} numbers"
    if shape == "nested":
        n = int(target // 3)  # "f(" and ")" per level
        put("x = " + "f(" * n + "0" + ")" * n + "\n")
        return size, f"one expression {n} calls deep"
    raise SystemExit(f"unknown shape {shape}")


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
    ap.add_argument("--shapes", default="typical,statements,classes,function,literal,nested")
    a = ap.parse_args()
    if not os.path.exists("/usr/bin/time"):
        sys.exit("needs GNU time (/usr/bin/time, Debian package time)")
    shapes = a.shapes.split(",")
    print(f"median peak RSS of {a.runs} runs, bytes of memory per byte of input")
    with tempfile.TemporaryDirectory() as d:
        for shape in shapes:
            path = os.path.join(d, f"{shape}.py")
            with open(path, "w") as f:
                size, what = write_shape(f, shape, a.mb)
            gpd = statistics.median(peak_kb([a.gpudoctor, "scan", path]) for _ in range(a.runs)) * 1024
            print(f"{shape:10} {size / 1e6:.1f} MB ({what}): gpudoctor scan {gpd / 1e6:7.1f} MB = {gpd / size:5.1f}")
            if shape == "typical":
                peer = statistics.median(peak_kb([sys.executable, "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())", path])
                                         for _ in range(a.runs)) * 1024
                print(f"{'':10} python ast {peer / 1e6:7.1f} MB = {peer / size:5.1f}; ratio gpudoctor / ast: {gpd / peer:.2f}")
            os.unlink(path)


if __name__ == "__main__":
    main()
