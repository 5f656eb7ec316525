#!/usr/bin/env python3
"""A real interpreter with Debian's python3-torch (a CPU-only build): `gpudoctor check --python
/usr/bin/python3` must call it torch.cpu_only_build from its files alone, and with --deep the
import must agree (torch.cuda.is_available() False, torch.version.cuda None), so that
deep.disagrees_with_static stays silent for it; a capture of this machine replayed with --root
(nothing executed) must give the same finding from the recorded sys.path.

  real_python.py --gpudoctor build/gpudoctor [--python /usr/bin/python3]
Exit 77 (skipped) when that interpreter cannot import torch.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77


def run(gpudoctor, python, deep):
    cmd = [gpudoctor, "check", "--json", "--python", python] + (["--deep"] if deep else [])
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    args = ap.parse_args()
    args.gpudoctor = os.path.abspath(args.gpudoctor)
    if not os.access(args.python, os.X_OK):
        print(f"SKIP: {args.python} does not exist (install python3)")
        return SKIP
    probe = subprocess.run([args.python, "-I", "-c", "import importlib.util,sys;"
                            "s=importlib.util.find_spec('torch');print(s.origin if s else '')"],
                           capture_output=True, text=True, cwd="/")
    if probe.returncode != 0 or not probe.stdout.strip():
        print(f"SKIP: {args.python} cannot import torch (install Debian's python3-torch)")
        return SKIP
    real = os.path.realpath(args.python)
    failures = []
    for deep in (False, True):
        report = run(args.gpudoctor, args.python, deep)
        envs = [e for e in report["facts"]["framework"]["environments"]
                if os.path.realpath(e["interpreter"]) == real and e["prefix"] == "/usr"]
        if not envs:
            failures.append(f"deep={deep}: no environment for {args.python}")
            continue
        env = envs[0]
        torch = [b for b in env["builds"] if b["framework"] == "torch"]
        if not torch or torch[0]["kind"] != "cpu":
            failures.append(f"deep={deep}: torch build {torch[:1]} is not read as CPU-only")
        cpu = [f for f in report["findings"] if f["id"] == "torch.cpu_only_build" and env["label"] in f["message"]]
        if not cpu:
            failures.append(f"deep={deep}: no torch.cpu_only_build for {env['label']}")
        if deep:
            reports = env["deep"] if isinstance(env["deep"], list) else []
            t = [d for d in reports if d["framework"] == "torch"]
            if not t or not t[0]["imported"]:
                failures.append(f"--deep did not import torch: {t or env['deep']}")
            elif t[0]["gpu_available"] is not False or t[0]["cuda_version"] != "":
                failures.append(f"--deep torch says {t[0]}")
            bad = [f for f in report["findings"] if f["id"] == "deep.disagrees_with_static"
                   and env["label"] in f["message"] and "torch" in f["message"]]
            if bad:
                failures.append(f"deep.disagrees_with_static for a build that agrees: {bad[0]['message']}")
    # Capture, then replay without executing anything: the recorded sys.path must give the same finding.
    with tempfile.TemporaryDirectory() as tmp:
        archive = os.path.join(tmp, "capture.tar.gz")
        env = dict(os.environ, PATH=os.path.dirname(real) + ":/bin")
        c = subprocess.run([args.gpudoctor, "capture", "-o", archive], capture_output=True, text=True, env=env, cwd=tmp)
        if c.returncode != 0:
            failures.append(f"capture failed: {c.stderr}")
        else:
            r = subprocess.run([args.gpudoctor, "check", "--root", archive, "--json"], capture_output=True, text=True)
            replay = json.loads(r.stdout)
            if not any(f["id"] == "torch.cpu_only_build" for f in replay["findings"]):
                failures.append("the replayed capture has no torch.cpu_only_build")
            envs = replay["facts"]["framework"]["environments"]
            if not envs or envs[0]["sys_path_source"] != "capture":
                failures.append(f"the replay did not use the recorded sys.path: {envs[:1]}")
    for f in failures:
        print("FAIL", f)
    print("ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
