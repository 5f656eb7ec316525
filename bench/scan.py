#!/usr/bin/env python3
"""Benchmark: `gpudoctor scan` (every rule on) against the CPython `ast` stand-in over a corpus.

  bench/scan.py [--gpudoctor BUILD/gpudoctor] [--runs 5] [CORPUS]

CORPUS defaults to the installed torch package (all its .py files). Reports, as medians of --runs
runs: MB/s of gpudoctor on one thread (--jobs 1) and on every hardware thread, MB/s of the stand-in
(one process, as flake8/pylint plugins run per file), and the per-core ratio.
"""
import argparse
import os
import resource
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
    """(wall seconds, CPU seconds) of one run. CPU time (user + sys of the child) is what a core
    spends, and stays meaningful on a machine shared with other work; wall time is what a user waits."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit(f"{cmd[0]} failed ({p.returncode}): {p.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
    # --include-tests: the same files as the stand-in reads (scan skips test files by default).
    ours1 = [timed([a.gpudoctor, "scan", "--json", "--include-tests", "--jobs", "1", corpus]) for _ in range(a.runs)]
    oursn = [timed([a.gpudoctor, "scan", "--json", "--include-tests", corpus]) for _ in range(a.runs)]
    base = [timed([sys.executable, os.path.join(HERE, "scan_ast_baseline.py"), corpus]) for _ in range(a.runs)]
    med = lambda runs, i: statistics.median(r[i] for r in runs)
    o1_wall, o1_cpu = med(ours1, 0), med(ours1, 1)
    on_wall = med(oursn, 0)
    b_wall, b_cpu = med(base, 0), med(base, 1)
    print(f"corpus: {corpus} ({mb:.1f} MB of .py), median of {a.runs} runs, {os.cpu_count()} hardware threads")
    print(f"gpudoctor scan, 1 thread : cpu {o1_cpu:6.2f} s = {mb / o1_cpu:6.1f} MB/s per core; wall {o1_wall:6.2f} s"
          f" (every rule, test files included)")
    print(f"gpudoctor scan, all      : wall {on_wall:6.2f} s = {mb / on_wall:6.1f} MB/s")
    print(f"CPython ast stand-in     : cpu {b_cpu:6.2f} s = {mb / b_cpu:6.1f} MB/s per core; wall {b_wall:6.2f} s"
          f" (3 rules, 1 process)")
    print(f"ratio per core (cpu)     : {b_cpu / o1_cpu:6.1f}x   (wall, 1 thread: {b_wall / o1_wall:.1f}x)")

if __name__ == "__main__":
    main()
