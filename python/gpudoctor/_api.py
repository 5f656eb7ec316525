"""gpudoctor.check(), explain() and scan(): the binary's JSON output as typed Reports."""
import json
import os
import sys

from gpudoctor._binary import GpudoctorError, run
from gpudoctor._report import Report

# The statuses that come with a report (DESIGN.md "Contracts"); 2 is a usage or internal error.
_REPORT_STATUSES = (0, 1, 3)


def _report(args, *, stdin=None, timeout):
    status, out, err = run(args, stdin=stdin, timeout=timeout)
    if status not in _REPORT_STATUSES:
        line = err.strip().splitlines()[0] if err.strip() else f"exit status {status}"
        raise GpudoctorError(f"gpudoctor {args[0]}: {line}")
    try:
        j = json.loads(out)
    except ValueError as e:
        raise GpudoctorError(f"gpudoctor {args[0]} printed no JSON ({e})") from None
    return Report.from_json(j, status)


def check(*, python=None, deep=False, root=None, timeout=120.0):
    """Diagnoses this machine, every layer, root cause first. `python`: the interpreter to judge
    besides the ones gpudoctor finds (default: this one); `root`: a captured machine instead."""
    args = ["check", "--json", "--python", python or sys.executable]
    if deep:
        args.append("--deep")
    if root is not None:
        args += ["--root", os.fspath(root)]
    return _report(args, timeout=timeout)


def explain(text, *, timeout=60.0):
    """What each known GPU error message in `text` (a log, a traceback, an issue body: str or
    bytes) means, the machine facts it states judged by the same checks, root cause first."""
    data = text if isinstance(text, bytes) else str(text).encode("utf-8", "replace")
    return _report(["explain", "--json", "-"], stdin=data, timeout=timeout)


def scan(paths, *, include_tests=False, timeout=300.0):
    """Checks Python files, notebooks and directories for device-placement and GPU-starvation
    mistakes. `paths`: one path or several."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    args = ["scan", "--json"]
    if include_tests:
        args.append("--include-tests")
    args += ["--", *(os.fsdecode(p) for p in paths)]  # a path may start with "-"
    return _report(args, timeout=timeout)
