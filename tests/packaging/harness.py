"""Shared by the Python-package, notebook and packaging cases: one case per ctest test, exit 0
passes, 1 fails, 77 skips after saying why. Every wait on a process is bounded."""
import os
import subprocess
import sys

SKIP = 77
# Debian's interpreter: python3-torch, python3-ipykernel, python3-nbclient and pip are its packages.
SYSTEM_PYTHON = "/usr/bin/python3"


class Skip(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def run(args, **kw):
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("timeout", 240)
    return subprocess.run(args, **kw)


def need_module(module, package):
    r = run([SYSTEM_PYTHON, "-c", f"import {module}"])
    check(r.returncode == 0, f"{SYSTEM_PYTHON} cannot import {module}: install {package} (scripts/setup --test)")


def main(cases, add_arguments, prepare):
    import argparse

    ap = argparse.ArgumentParser()
    add_arguments(ap)
    ap.add_argument("--work", required=True)
    ap.add_argument("case", choices=sorted(cases))
    a = ap.parse_args()
    a.work = os.path.abspath(a.work)
    os.makedirs(a.work, exist_ok=True)
    prepare(a)
    try:
        cases[a.case](a)
    except Skip as s:
        print(f"SKIP: {s}")
        return SKIP
    except AssertionError as e:
        print(f"FAIL: {e}")
        return 1
    print("PASS")
    return 0
