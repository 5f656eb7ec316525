#!/usr/bin/env python3
"""Benchmark: `gpudoctor scan` (every rule on) against the CPython `ast` stand-in over a corpus.

  bench/scan.py [--gpudoctor BUILD/gpudoctor] [--runs 5] [CORPUS]

CORPUS defaults to the installed torch package (all its .py files). Reports, as medians of --runs
runs: MB/s of gpudoctor on one thread (--jobs 1) and on every hardware thread, MB/s of the stand-in
(one process, as flake8/pylint plugins run per file), and the per-core ratio.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def default_corpus():
    out = subprocess.run([sys.executable, "-c", "import os, torch; print(os.path.dirname(torch.__file__))"],
                         capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None


def corpus_bytes(root):
    total = 0
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x not in (".git", "__pycache__", "site-packages", "node_modules")]
        total += sum(os.path.getsize(os.path.join(d, n)) for n in names if n.endswith(".py"))
    return total


def timed(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if p.returncode not in (0, 1):
        sys.exit(f"{cmd[0]} failed ({p.returncode}): {p.stderr[-2000:]}")
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", default=os.path.join(HERE, "..", "build", "gpudoctor"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("corpus", nargs="?")
    a = ap.parse_args()
    corpus = a.corpus or default_corpus()
    if not corpus or not os.path.isdir(corpus):
        sys.exit("no corpus: pass a directory (torch is not installed)")
    mb = corpus_bytes(corpus) / 1e6
    ours1 = [timed([a.gpudoctor, "scan", "--json", "--jobs", "1", corpus]) for _ in range(a.runs)]
    oursn = [timed([a.gpudoctor, "scan", "--json", corpus]) for _ in range(a.runs)]
    base = [timed([sys.executable, os.path.join(HERE, "scan_ast_baseline.py"), corpus]) for _ in range(a.runs)]
    m1, mn, mb_ = (statistics.median(x) for x in (ours1, oursn, base))
    print(f"corpus: {corpus} ({mb:.1f} MB of .py), median of {a.runs} runs, {os.cpu_count()} hardware threads")
    print(f"gpudoctor scan, 1 thread : {m1:7.3f} s  {mb / m1:7.1f} MB/s  (all 18 rules)")
    print(f"gpudoctor scan, all      : {mn:7.3f} s  {mb / mn:7.1f} MB/s")
    print(f"CPython ast stand-in     : {mb_:7.3f} s  {mb / mb_:7.1f} MB/s  (3 rules, 1 process)")
    print(f"ratio per core           : {mb_ / m1:7.1f}x")


if __name__ == "__main__":
    main()
