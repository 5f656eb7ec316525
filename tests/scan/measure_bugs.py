#!/usr/bin/env python3
"""Recall of `gpudoctor scan` on real device bugs (tests/scan/real_bugs/).

Each NN_*.py there is a small program of our own that reproduces one bug reported and fixed in a
public project (its header names the source, the kind of bug and the split). A bug is found when
scan reports an error or a warning on a line marked `# bug: KIND` (or on another line of the same
statement, when the marked line opens a call written over several lines); a finding of severity info on
that line is counted apart (advice a user may have turned off is not a catch).

    tests/scan/measure_bugs.py --gpudoctor build/gpudoctor [--split dev|dev2|test|test2|test3|test4|test5|test6|test7|test8|test9|test10|test11|test12|test13|test14|test15|test16|test17|test18|test19|test20|test21|test22|test23|test24|test25|all] [--misses]
                               [--min-recall SPLIT=PCT ...]

Splits: dev and dev2 were read while the rules were written; test is held out; test2 (35-60 and 87-106)
was held out until it was read after its first measurement (23.9 %); test3 (107-126) and test4 (127-146) were
collected later and read only after their first measurement (30 % and 20 %); test5 (147-162), test6 (163-178) and test7 (179-198) were read after their first measurement; test8 (199-211), collected blind on 2026-12-06, was measured once at 15.4 % and then read; test9 (212-228), collected blind on 2026-12-06, was measured once at 23.5 % (after the rules written from test8, the same as before them) and then read; test10 (229-240), collected blind after the test8 and test9 rules were written, was measured once at 16.7 %, the same as the analyser of the start of that session; test11 (241-263) was collected blind on 2026-12-06 after the test10 rules were written, measured once at 17.4 % and then read; test12 (264-283) was collected blind on 2026-12-07 after the test11 rules, measured once at 30.0 % and then read; test13 (284-303) was collected blind on 2026-12-07 after the test12 rules, measured once at 20.0 % and then read; test14 (304-323) was collected blind on 2026-12-07 while the test13 rules were written, measured once at 25.0 % and then read; test15 (324-339) was collected blind while the test14 rules were written and measured once at the end of that session, unread, at 25.0 %; test16 (340-359) was collected blind in the next session and measured once at 20.0 %, before any scan rule of that session, then read; test17 (360-379) was collected blind while the test15 and test16 rules were written and measured once at 15.0 %, the same without those rules, then read; test18 (380-399) was collected blind in the next session while rules were written from the test17 misses, and measured once at 20.0 %, the same with the analyser of that session's start, then read; test19 (400-419) was collected blind later in that session and measured once at 25.0 %, the same with the analyser of that session's start, then read in the next session; test20 (420-439) was collected blind at the start of the next session and measured once at 25.0 %, before any change of that session (the same with the analyser of the session before), and read in the session after; test21 (440-459) was collected blind at the start of that session and measured once at 10.0 %, before any scan change of that session, and read in the next; test22 (460-479) was collected blind at the start of that next session and measured once at 20.0 %, before any change of that session, a second time at 20.0 % after the rules that session wrote from test21, and then read; test23 (480-499) was collected blind in that same session and measured once at its end, unread, at 20.0 % (also 20.0 % with the analyser of the session's start), and read in the next session; test24 (500-519) was collected blind at the start of that next session and measured once at 10.0 %, the same before and after that session's rules from test23, and then read; test25 (520-539) was collected blind later in that session and measured once, unread, at 25.0 %, the same with the analyser before the rules from test24. File names start with the case number, of any width.
"""
import argparse
import ast
import json
import pathlib
import re
import subprocess
import sys
from collections import defaultdict

HERE = pathlib.Path(__file__).resolve().parent / "real_bugs"


# A marked line stands for its whole statement: a call written over several lines is reported at
# the argument that is wrong (`input_ids=ids,`), which is the same bug. Compound statements (for,
# with, if, def) stand for their header line only.
SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)


def statement_lines(tree, line):
    end = line
    for node in ast.walk(tree):
        if isinstance(node, SIMPLE) and node.lineno == line and node.end_lineno:
            end = max(end, node.end_lineno)
    return list(range(line, end + 1))


def cases():
    for path in sorted(HERE.glob("[0-9]*_*.py")):
        text = path.read_text(encoding="utf-8")
        header = dict(re.findall(r"^# (source|kind|split): (.+)$", text, re.M))
        tree = ast.parse(text)
        lines = [n for i, line in enumerate(text.splitlines()) if re.search(r"#\s*bug:\s*\w+", line)
                 for n in statement_lines(tree, i + 1)]
        yield path, header, lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--split", choices=["dev", "dev2", "test", "test2", "test3", "test4", "test5", "test6", "test7", "test8", "test9", "test10", "test11", "test12", "test13", "test14", "test15", "test16", "test17", "test18", "test19", "test20", "test21", "test22", "test23", "test24", "test25", "all"], default="all")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--min-recall", action="append", default=[], metavar="SPLIT=PCT")
    a = ap.parse_args()
    found = defaultdict(int)
    total = defaultdict(int)
    by_kind = defaultdict(lambda: [0, 0])
    misses = []
    for path, header, lines in cases():
        split = header.get("split", "?")
        if a.split != "all" and split != a.split:
            continue
        out = subprocess.run([a.gpudoctor, "scan", "--json", "--color", "never", str(path)],
                             capture_output=True, text=True, timeout=60)
        if out.returncode not in (0, 1):
            print(f"{path.name}: scan exited {out.returncode}: {out.stderr.strip()}", file=sys.stderr)
            return 2
        findings = json.loads(out.stdout)["findings"]
        strong = {f["location"]["line"] for f in findings if f.get("location") and f["severity"] in ("error", "warning")}
        weak = {f["location"]["line"] for f in findings if f.get("location") and f["severity"] == "info"}
        hit = any(line in strong for line in lines)
        total[split] += 1
        found[split] += hit
        by_kind[(split, header.get("kind", "?"))][0] += hit
        by_kind[(split, header.get("kind", "?"))][1] += 1
        if not hit:
            info = " (an info finding on the line)" if any(line in weak for line in lines) else ""
            got = sorted({(f["location"]["line"], f["id"]) for f in findings if f.get("location")})
            misses.append(f"{split} {path.name} [{header.get('kind')}]{info}: found {got}")
    print("split  bugs  found  recall")
    for split in sorted(total):
        print(f"{split:5} {total[split]:5} {found[split]:6} {100.0 * found[split] / total[split]:6.1f}%")
    print("\nsplit  kind                          found/bugs")
    for (split, kind), (hit, n) in sorted(by_kind.items()):
        print(f"{split:5}  {kind:29} {hit}/{n}")
    if a.misses:
        print("\nmisses:")
        for m in misses:
            print("  " + m)
    status = 0
    for spec in a.min_recall:
        split, pct = spec.split("=")
        if total[split] and 100.0 * found[split] / total[split] < float(pct):
            print(f"recall on {split} is below {pct}%", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
