#!/usr/bin/env python3
"""The notebook extension in a real Jupyter kernel (Debian's python3-ipykernel, driven by
python3-nbclient), on Debian's CPU-only python3-torch, and its HTML in headless Chromium.

  notebook_cases.py --portable build/portable/gpudoctor --source . --work DIR CASE

The kernel inherits PYTHONPATH (the package's source) and GPUDOCTOR_BINARY (the portable binary).
"""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import SYSTEM_PYTHON, check, main, need_module, run  # noqa: E402

CELL_TIMEOUT = 180  # seconds per cell: a kernel importing torch on a busy 2-core machine
STARTUP_TIMEOUT = 120


def execute(a, name, cells):
    """Runs the cells in a fresh kernel; returns each cell's outputs. Errors do not stop it."""
    need_module("nbclient", "python3-nbclient")
    need_module("ipykernel", "python3-ipykernel")
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                   "source": src} for i, src in enumerate(cells)],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    src = os.path.join(a.work, f"{name}.ipynb")
    out = os.path.join(a.work, f"{name}.out.ipynb")
    with open(src, "w") as f:
        json.dump(nb, f)
    driver = (
        "import sys, nbformat\n"
        "from nbclient import NotebookClient\n"
        "nb = nbformat.read(sys.argv[1], as_version=4)\n"
        f"NotebookClient(nb, timeout={CELL_TIMEOUT}, startup_timeout={STARTUP_TIMEOUT}, allow_errors=True,\n"
        "               kernel_name='python3').execute()\n"
        "nbformat.write(nb, sys.argv[2])\n"
    )
    env = dict(os.environ, PYTHONPATH=os.path.join(a.source, "python"), GPUDOCTOR_BINARY=a.portable,
               PYTHONDONTWRITEBYTECODE="1", JUPYTER_PLATFORM_DIRS="1")
    with tempfile.TemporaryDirectory() as home:
        env["HOME"] = home  # a kernel's runtime files, never the user's
        r = run([SYSTEM_PYTHON, "-c", driver, src, out], env=env, cwd=a.work,
                timeout=STARTUP_TIMEOUT + CELL_TIMEOUT * len(cells))
    check(r.returncode == 0, f"the notebook did not run: {r.stderr.decode('utf-8', 'replace')[-3000:]}")
    with open(out) as f:
        done = json.load(f)
    return [c["outputs"] for c in done["cells"]]


def joined(value):
    return "".join(value) if isinstance(value, list) else value  # nbformat may split text into lines


def stream(outputs, name):
    return "".join(joined(o["text"]) for o in outputs if o["output_type"] == "stream" and o["name"] == name)


def rich(outputs, mime):
    return "".join(joined(o["data"].get(mime, "")) for o in outputs if o["output_type"] in ("display_data", "execute_result"))


def show(cells_outputs):
    for i, outs in enumerate(cells_outputs):
        for o in outs:
            kind = o["output_type"]
            body = o.get("text") or o.get("evalue") or o.get("data", {}).get("text/plain", "")
            print(f"[{i}] {kind}{' ' + o.get('name', '') if kind == 'stream' else ''}: {str(body)[:600]}")


def case_cuda_cell(a):
    outs = execute(a, "cuda_cell", [
        "%load_ext gpudoctor",
        "import torch\nx = torch.zeros(3)\nx = x.cuda()",
        "1 + 1",
    ])
    show(outs)
    cell = outs[1]
    check(cell and cell[0]["output_type"] == "error", "the traceback is the cell's first output")
    check(cell[0]["ename"] == "AssertionError" and "Torch not compiled with CUDA enabled" in cell[0]["evalue"],
          f"the original error, unchanged: {cell[0]['ename']}: {cell[0]['evalue']}")
    traceback = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(cell[0]["traceback"]))  # IPython colours it
    check("x = x.cuda()" in traceback, f"the traceback shows the failing line: {traceback[-1500:]}")
    html, plain = rich(cell[1:], "text/html"), rich(cell[1:], "text/plain")
    check("torch.cpu_only_build" in html and "torch.cpu_only_build" in plain,
          "the diagnosis under the traceback names torch.cpu_only_build (HTML and text)")
    check("log.torch_not_compiled_with_cuda" in html, "and says what the message means")
    check(rich(outs[2], "text/plain") == "2", "the kernel lives on")
    # The same cells without the extension: the error output is the same, field for field.
    plain = execute(a, "cuda_cell_plain", ["pass", "import torch\nx = torch.zeros(3)\nx = x.cuda()"])
    check(plain[1] == [cell[0]], f"the traceback is unchanged by the extension: {plain[1]!r} vs {cell[0]!r}")


def case_bad_input(a):
    huge = "raise RuntimeError('CUDA error: out of memory ' + 'x' * 20_000_000)"
    non_utf8 = "raise RuntimeError(b'CUDA error: \\xff\\xfe device-side assert'.decode('utf-8', 'surrogateescape'))"
    cells = [
        "%load_ext gpudoctor",
        "%gpudoctor",
        "%gpudoctor frobnicate",
        "%gpudoctor check --no-such-flag",
        "%gpudoctor scan",
        "%gpudoctor scan /no/such/file.py",
        "%gpudoctor scan 'unterminated",
        "%gpudoctor explain",  # 7: no error yet
        huge,  # 8
        "%gpudoctor explain",  # 9: the last error
        non_utf8,  # 10
        "import sys\nsys.modules['torch'] = None\nimport torch",  # 11: a kernel without torch
        "%gpudoctor check",  # 12
        "raise RuntimeError('CUDA error: an illegal memory access was encountered')",  # 13
        "import os\nos.environ['GPUDOCTOR_BINARY'] = '/no/such/gpudoctor'\n"
        "raise RuntimeError('CUDA error: an illegal memory access was encountered')",  # 14
        "%gpudoctor check",  # 15
        "1 + 1",  # 16
    ]
    outs = execute(a, "bad_input", cells)
    show(outs)
    for i in range(1, 8):
        err = stream(outs[i], "stderr")
        check(err.count("\n") == 1 and err.startswith("gpudoctor"), f"cell {i}: one clear line, got {err!r}")
        check(not any(o["output_type"] == "error" for o in outs[i]), f"cell {i}: no traceback")
    check("usage: %gpudoctor check" in stream(outs[2], "stderr"), "an unknown command gets the usage")
    check("no error to explain yet" in stream(outs[7], "stderr"), "explain before any error says so")
    for i in (8, 10, 13):
        check(outs[i][0]["output_type"] == "error" and outs[i][0]["ename"] == "RuntimeError", f"cell {i}: traceback first")
        check("gpudoctor: what this error means" in rich(outs[i][1:], "text/plain"), f"cell {i}: then the diagnosis")
    check(len(outs[8][0]["evalue"]) > 20_000_000, "the huge message is shown whole, unchanged")
    check("log.cuda_oom" in rich(outs[9], "text/html"), "explain of the last error")
    check(outs[11][0]["ename"] in ("ModuleNotFoundError", "ImportError") and len(outs[11]) == 1,
          "no torch: the usual ImportError, nothing added")
    check("gpudoctor-finding" in rich(outs[12], "text/html"), "check works in a kernel without torch")
    check(outs[14][0]["output_type"] == "error", "traceback first when gpudoctor itself fails")
    tail = stream(outs[14][1:], "stderr")
    check(tail.count("\n") == 1 and tail.startswith("gpudoctor: could not diagnose this error"), f"one line: {tail!r}")
    check(stream(outs[15], "stderr").startswith("gpudoctor check: no gpudoctor binary"), "the magic says so too")
    check(rich(outs[16], "text/plain") == "2", "the kernel lives on")


def chromium():
    for name in ("chromium", "chromium-browser"):
        for d in os.environ.get("PATH", "").split(":"):
            if os.access(os.path.join(d, name), os.X_OK):
                return os.path.join(d, name)
    check(False, "chromium is not installed (scripts/setup --test installs it)")


def case_html_chromium(a):
    outs = execute(a, "html", ["%load_ext gpudoctor", "%gpudoctor check"])
    html = rich(outs[1], "text/html")
    check("gpudoctor-report" in html and "gpudoctor-finding" in html, f"HTML output: {html[:500]!r}")
    page = os.path.join(a.work, "check.html")
    with open(page, "w") as f:
        f.write(f"<!doctype html><meta charset='utf-8'><title>%gpudoctor check</title><body>{html}</body>")
    shot = os.path.join(a.work, "check.png")
    if os.path.exists(shot):
        os.unlink(shot)
    browser = chromium()
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync"]
    with tempfile.TemporaryDirectory() as profile:
        r = run([browser, *flags, f"--user-data-dir={profile}", f"--screenshot={shot}", "--window-size=1000,700",
                 "file://" + page], timeout=120)
    check(os.path.exists(shot) and os.path.getsize(shot) > 10000,
          f"chromium wrote a screenshot: {r.returncode} {r.stderr.decode('utf-8', 'replace')[-1500:]}")
    with tempfile.TemporaryDirectory() as profile:
        r = run([browser, *flags, f"--user-data-dir={profile}", "--dump-dom", "file://" + page], timeout=120)
    dom = r.stdout.decode("utf-8", "replace")
    ids = [f["id"] for f in json.loads(run([a.portable, "check", "--json", "--python", SYSTEM_PYTHON]).stdout)["findings"]]
    check(ids and all(f'data-id="{i}"' in dom for i in ids), f"every finding of check rendered: {ids}")
    print(f"screenshot: {shot}")


CASES = {"cuda_cell": case_cuda_cell, "bad_input": case_bad_input, "html_chromium": case_html_chromium}


def arguments(ap):
    ap.add_argument("--portable", required=True)
    ap.add_argument("--source", required=True)


def prepare(a):
    a.portable = os.path.abspath(a.portable)
    a.source = os.path.abspath(a.source)


if __name__ == "__main__":
    sys.exit(main(CASES, arguments, prepare))
