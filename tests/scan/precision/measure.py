#!/usr/bin/env python3
"""Precision of `gpudoctor scan` on public repositories, against labels read by hand.

The repositories are not part of this project: fetch each one listed in repos.tsv at its commit
into REPOS/<owner>+<name>/, then

    tests/scan/precision/measure.py --gpudoctor build/gpudoctor --repos REPOS [--set tuned|heldout] [--unlabelled]

Two sets: "tuned" (repos.tsv, labels.tsv: the 20 repositories the rules were tuned on) and
"heldout" (repos-heldout.tsv, labels-heldout.tsv: 10 more, labelled once and never tuned on).

Every error and warning is matched to labels.tsv by (repo, file, cell, line, rule id); labels are
real / advice / minor / wrong (see docs/scan-accuracy.md). Precision is (real + advice) / labelled findings.
A finding without a label is counted apart: label it before quoting a figure.
"""
import argparse
import collections
import csv
import json
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--repos", required=True)
    ap.add_argument("--set", default="tuned", choices=["tuned", "heldout"])
    ap.add_argument("--unlabelled", action="store_true", help="list the findings without a label")
    a = ap.parse_args()
    suffix = "" if a.set == "tuned" else "-heldout"
    labels = {}
    with open(HERE / f"labels{suffix}.tsv", encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            labels[(r["repo"], r["file"], r["cell"], r["line"], r["id"])] = r["label"]
    repos = [r["repo"] for r in csv.DictReader(open(HERE / f"repos{suffix}.tsv", encoding="utf-8"), delimiter="\t")]
    by_rule = collections.defaultdict(collections.Counter)
    unlabelled = []
    for repo in repos:
        path = pathlib.Path(a.repos) / repo.replace("/", "+")
        if not path.is_dir():
            print(f"{repo}: not at {path}; fetch it first", file=sys.stderr)
            return 2
        out = subprocess.run([os.path.abspath(a.gpudoctor), "scan", "--json", "."], cwd=path,
                             capture_output=True, text=True, timeout=600)
        for f in json.loads(out.stdout)["findings"]:
            if f["severity"] not in ("error", "warning"):
                continue
            loc = f.get("location") or {}
            file = loc.get("file", "").removeprefix("./")
            key = (repo, file, loc.get("cell", ""), str(loc.get("line")), f["id"])
            label = labels.get(key)
            if label is None:
                unlabelled.append(key)
                label = "unlabelled"
            by_rule[f["id"]][label] += 1
    total = collections.Counter()
    print(f"{'rule':34} {'n':>4} {'real':>5} {'advice':>6} {'minor':>5} {'wrong':>5} {'unlab':>5}  precision")
    for rule in sorted(by_rule):
        c = by_rule[rule]
        total.update(c)
        n = sum(c.values())
        lab = n - c["unlabelled"]
        prec = f"{100.0 * (c['real'] + c['advice']) / lab:.0f}%" if lab else "-"
        print(f"{rule:34} {n:4} {c['real']:5} {c['advice']:6} {c['minor']:5} {c['wrong']:5} {c['unlabelled']:5}  {prec}")
    n = sum(total.values())
    lab = n - total["unlabelled"]
    if lab:
        print(f"\nall: {n} errors and warnings, {lab} labelled: precision "
              f"{100.0 * (total['real'] + total['advice']) / lab:.1f}%, wrong {100.0 * total['wrong'] / lab:.1f}%")
    if a.unlabelled:
        for k in unlabelled:
            print("unlabelled:", "\t".join(k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
