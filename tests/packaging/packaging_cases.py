#!/usr/bin/env python3
"""The ways in outside Python: the portable binary, the .deb (built by cpack from this build,
checked by lintian, unpacked by dpkg-deb), the pre-commit hook (Debian's pre-commit, offline), and
SARIF validated against the SARIF 2.1.0 schema.

  packaging_cases.py --portable build/portable/gpudoctor --build build --source . --work DIR CASE
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import SYSTEM_PYTHON, check, main, need_module, run  # noqa: E402

# glibc's own libraries: what the portable binary may need, and nothing else.
GLIBC_LIBRARIES = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "ld-linux-x86-64.so.2"}
BAD = "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\nx = torch.zeros(2)\ny = model(x)\n"
GOOD = "import torch\ndevice = 'cuda'\nmodel = torch.nn.Linear(2, 2).to(device)\nx = torch.zeros(2, device=device)\ny = model(x)\n"
TRACEBACK = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"


def text(b):
    return b.decode("utf-8", "replace")


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content)


def needed(binary):
    r = run(["readelf", "-d", "-W", binary])
    check(r.returncode == 0, f"readelf -d: {text(r.stderr)}")
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", text(r.stdout))


def case_portable_needs_glibc_only(a):
    libs = needed(a.portable)
    print("DT_NEEDED:", libs)
    check(libs and set(libs) <= GLIBC_LIBRARIES, f"only glibc's libraries, not {sorted(set(libs) - GLIBC_LIBRARIES)}")
    check(set(needed(a.gpudoctor)) - GLIBC_LIBRARIES, "the normal build links shared libraries (the test sees them)")
    # What the loader really maps: nothing outside glibc either.
    r = run([a.portable, "--version"], env={"LD_TRACE_LOADED_OBJECTS": "1", "PATH": "/usr/bin:/bin"})
    loaded = re.findall(r"^\s*(\S+)", text(r.stdout), re.M)
    print("loaded:", loaded)
    check(r.returncode == 0 and loaded, f"ld.so lists what it loads: {text(r.stdout + r.stderr)}")
    check(all(os.path.basename(l) in GLIBC_LIBRARIES or l.startswith("linux-vdso") for l in loaded), f"{loaded}")
    r = run(["objdump", "-T", a.portable])
    minor = max(int(m) for m in re.findall(r"GLIBC_2\.(\d+)", text(r.stdout)))
    print(f"oldest glibc it runs on: 2.{minor}; size {os.path.getsize(a.portable) / 1e6:.1f} MB (with debug info)")
    with open(os.path.join(a.source, "README.md")) as f:
        check(f"glibc 2.{minor}" in f.read(), f"README.md states the oldest glibc, 2.{minor}")


def case_portable_runs_alone(a):
    # An environment with an empty LD_LIBRARY_PATH, in an empty directory: the data tables and the
    # grammar must be inside the binary.
    env = {"LD_LIBRARY_PATH": "", "PATH": "/usr/bin:/bin", "HOME": a.work, "NO_COLOR": "1"}
    with tempfile.TemporaryDirectory() as cwd:
        shutil.copy(a.portable, os.path.join(cwd, "gpudoctor"))
        write(os.path.join(cwd, "code", "bad.py"), BAD)
        gpd = os.path.join(cwd, "gpudoctor")
        r = run([gpd, "check", "--json"], env=env, cwd=cwd)
        check(r.returncode in (0, 1), f"check: {r.returncode} {text(r.stderr)}")
        j = json.loads(r.stdout)
        check(j["findings"] and j["command"] == "check", "check found something to say")
        r = run([gpd, "explain", "--json", "-"], input=TRACEBACK.encode(), env=env, cwd=cwd)
        ids = [f["id"] for f in json.loads(r.stdout)["findings"]]
        check(r.returncode == 1 and any(i.startswith("log.") for i in ids), f"explain (data tables inside): {ids}")
        r = run([gpd, "scan", "--json", "code"], env=env, cwd=cwd)
        ids = [f["id"] for f in json.loads(r.stdout)["findings"]]
        check(r.returncode == 1 and "code.inputs_not_moved" in ids, f"scan (grammar inside): {ids} {text(r.stderr)}")
        r = run([gpd, "scan", "--explain", "code.inputs_not_moved"], env=env, cwd=cwd)
        check(r.returncode == 0 and "```" in text(r.stdout), "the rule docs are inside")


def build_deb(a):
    out = os.path.join(a.work, "deb")
    shutil.rmtree(out, ignore_errors=True)
    r = run(["cpack", "-G", "DEB", "-B", out, "--config", os.path.join(a.build, "CPackConfig.cmake")],
            cwd=a.build, timeout=600)
    debs = glob.glob(os.path.join(out, "gpudoctor_*_amd64.deb"))
    check(r.returncode == 0 and len(debs) == 1, f"cpack: {text(r.stdout)[-2000:]} {text(r.stderr)[-2000:]}")
    return debs[0]


def case_release_script(a):
    """scripts/release packs this build's portable binary, wheel and .deb into DIST: the three files
    are there, named by the version, and the wheel and the .deb carry the same stripped binary."""
    dist = os.path.join(a.work, "dist")
    r = run([os.path.join(a.source, "scripts", "release")], cwd=a.source, timeout=600,
            env=dict(os.environ, DIST=dist, GPUDOCTOR_RELEASE_BUILD=a.build, PYTHON=SYSTEM_PYTHON))
    check(r.returncode == 0, f"scripts/release: {text(r.stdout)[-2000:]} {text(r.stderr)[-2000:]}")
    version = text(run([a.gpudoctor, "--version"]).stdout).split()[1]
    binary = os.path.join(dist, "gpudoctor")
    wheels = glob.glob(os.path.join(dist, f"gpudoctor-{version}-*.whl"))
    debs = glob.glob(os.path.join(dist, f"gpudoctor_{version}_amd64.deb"))
    check(os.access(binary, os.X_OK) and len(wheels) == 1 and len(debs) == 1, f"dist holds {sorted(os.listdir(dist))}")
    libs = needed(binary)
    check(libs and all(l in GLIBC_LIBRARIES for l in libs), f"the released binary needs only glibc: {libs}")
    r = run([binary, "--version"], env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": ""})
    check(r.returncode == 0 and version in text(r.stdout), f"the released binary runs: {text(r.stdout)} {text(r.stderr)}")
    check(run(["readelf", "-S", binary]).stdout.find(b".debug_info") < 0, "the released binary is stripped")
    released = open(binary, "rb").read()
    with zipfile.ZipFile(wheels[0]) as z:
        inside = [n for n in z.namelist() if n.endswith("/bin/gpudoctor")]
        check(len(inside) == 1, f"the wheel carries one binary: {z.namelist()}")
        check(z.read(inside[0]) == released, "the wheel carries the released binary")
    unpacked = os.path.join(a.work, "deb-root")
    shutil.rmtree(unpacked, ignore_errors=True)
    check(run(["dpkg-deb", "-x", debs[0], unpacked]).returncode == 0, "dpkg-deb -x")
    r = run([os.path.join(unpacked, "usr", "bin", "gpudoctor"), "--version"])
    check(r.returncode == 0 and version in text(r.stdout), "the .deb's binary runs")


def case_deb_lintian(a):
    deb = build_deb(a)
    version = text(run([a.gpudoctor, "--version"]).stdout).split()[1]
    check(os.path.basename(deb) == f"gpudoctor_{version}_amd64.deb", os.path.basename(deb))
    r = run(["dpkg-deb", "--field", deb, "Depends"])
    depends = text(r.stdout)
    print("Depends:", depends.strip())
    for lib in ("libc6", "libre2-9", "libarchive13", "libtree-sitter0"):
        check(lib in depends, f"shlibdeps computed the dependency on {lib}: {depends}")
    r = run(["lintian", "--no-cfg", "--fail-on", "error", deb], timeout=600)
    print(text(r.stdout), text(r.stderr))
    check(r.returncode == 0 and not re.search(r"^E: ", text(r.stdout), re.M), "lintian reports no error")


def case_deb_unpacked(a):
    deb = build_deb(a)
    root = os.path.join(a.work, "deb-root")
    shutil.rmtree(root, ignore_errors=True)
    r = run(["dpkg-deb", "-x", deb, root])
    check(r.returncode == 0, f"dpkg-deb -x: {text(r.stderr)}")
    gpd = os.path.join(root, "usr", "bin", "gpudoctor")
    r = run([gpd, "--version"])
    check(r.returncode == 0 and text(r.stdout).startswith("gpudoctor "), f"the packaged binary runs: {r}")
    r = run([gpd, "explain", "-"], input=TRACEBACK.encode())
    check(r.returncode == 1, f"the packaged binary explains: {r.returncode}")
    page = os.path.join(root, "usr", "share", "man", "man1", "gpudoctor.1.gz")
    r = run(["man", "-l", page], env=dict(os.environ, MANPAGER="cat", PAGER="cat", MANWIDTH="100", LC_ALL="C.UTF-8"))
    shown = text(r.stdout)
    check(r.returncode == 0 and "SYNOPSIS" in shown and "EXIT STATUS" in shown, f"man -l: {text(r.stderr)[-1000:]}")
    for command in ("check", "explain", "scan", "run", "docs"):
        check(re.search(rf"^\s+{command}$", shown, re.M), f"the man page has a section for {command}")
    check("--sarif" in shown, "and the scan flags")
    completion = os.path.join(root, "usr", "share", "bash-completion", "completions", "gpudoctor")
    script = (f"source {completion}\ncomplete -p gpudoctor\n"
              "COMP_WORDS=(gpudoctor sc); COMP_CWORD=1; _gpudoctor; echo \"top: ${COMPREPLY[*]}\"\n"
              "COMP_WORDS=(gpudoctor check --color a); COMP_CWORD=3; _gpudoctor; echo \"color: ${COMPREPLY[*]}\"\n"
              "COMP_WORDS=(gpudoctor scan --s); COMP_CWORD=2; _gpudoctor; echo \"scan: ${COMPREPLY[*]}\"\n")
    r = run(["bash", "--norc", "--noprofile", "-c", script])
    out = text(r.stdout)
    print(out)
    check(r.returncode == 0 and "complete -o filenames -F _gpudoctor gpudoctor" in out, f"complete -p: {text(r.stderr)}")
    check("top: scan" in out and "color: auto always" in out and "--sarif" in out and "--stats" in out, out)
    for path in ("usr/share/zsh/vendor-completions/_gpudoctor", "usr/share/fish/vendor_completions.d/gpudoctor.fish"):
        check(os.path.getsize(os.path.join(root, path)) > 500, f"{path} is in the package")
    for shell, path in (("zsh", "usr/share/zsh/vendor-completions/_gpudoctor"),
                        ("fish", "usr/share/fish/vendor_completions.d/gpudoctor.fish")):
        check(shutil.which(shell), f"{shell} is not installed (scripts/setup --test installs it)")
        r = run([shell, "-n", os.path.join(root, path)])
        check(r.returncode == 0, f"{shell} -n {path}: {text(r.stderr)}")


def git(repo, *args):
    r = run(["git", "-C", repo, *args], env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@localhost",
                                                    GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@localhost"))
    check(r.returncode == 0, f"git {' '.join(args)}: {text(r.stderr)}")
    return r


def case_precommit_hook(a):
    check(shutil.which("pre-commit"), "pre-commit is not installed (scripts/setup --test installs it)")
    # The hook repository: this source tree's .pre-commit-hooks.yaml in a git repository of its own
    # (pre-commit clones a hook repository), with the portable binary on PATH as `gpudoctor`.
    hooks = os.path.join(a.work, "hooks-repo")
    shutil.rmtree(hooks, ignore_errors=True)
    os.makedirs(hooks)
    shutil.copy(os.path.join(a.source, ".pre-commit-hooks.yaml"), hooks)
    git(hooks, "init", "-q")
    git(hooks, "add", ".")
    git(hooks, "commit", "-q", "-m", "hooks")
    rev = text(git(hooks, "rev-parse", "HEAD").stdout).strip()
    bindir = os.path.join(a.work, "precommit-bin")
    os.makedirs(bindir, exist_ok=True)
    shutil.copy(a.portable, os.path.join(bindir, "gpudoctor"))
    project = os.path.join(a.work, "project")
    shutil.rmtree(project, ignore_errors=True)
    os.makedirs(project)
    git(project, "init", "-q")
    write(os.path.join(project, ".pre-commit-config.yaml"),
          f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: gpudoctor-scan\n")
    write(os.path.join(project, "good.py"), GOOD)
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": GOOD}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    write(os.path.join(project, "good.ipynb"), json.dumps(nb))
    env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", ""), PRE_COMMIT_HOME=os.path.join(a.work, "pc-home"),
               NO_COLOR="1")
    env.pop("PYTHONPATH", None)
    git(project, "add", ".")
    r = run(["pre-commit", "run", "--all-files"], cwd=project, env=env, timeout=300)
    print(text(r.stdout))
    check(r.returncode == 0 and "Passed" in text(r.stdout), f"good files pass: {text(r.stdout + r.stderr)[-2000:]}")
    write(os.path.join(project, "bad.py"), BAD)
    nb["cells"][0]["source"] = BAD
    write(os.path.join(project, "bad.ipynb"), json.dumps(nb))
    git(project, "add", ".")
    r = run(["pre-commit", "run", "--all-files"], cwd=project, env=env, timeout=300)
    out = text(r.stdout)
    print(out)
    check(r.returncode == 1 and "Failed" in out, f"a bad file fails the hook: {out[-2000:]} {text(r.stderr)[-1000:]}")
    check("bad.py:4:" in out and "code.inputs_not_moved" in out, "the finding is shown with its place")
    check("bad.ipynb" in out, "notebooks are scanned too")
    check("good.py" not in out, "the good file has nothing to say")


def case_sarif_schema(a):
    need_module("jsonschema", "python3-jsonschema")
    schema = os.path.join(a.source, "node_modules", "@microsoft", "jest-sarif", "lib", "schemas", "sarif-2.1.0-rtm.5.json")
    check(os.path.exists(schema), f"{schema} is missing: run npm ci (scripts/setup does)")
    code = os.path.join(a.work, "sarif-code")
    write(os.path.join(code, "bad.py"), BAD)
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": BAD}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    write(os.path.join(code, "bad.ipynb"), json.dumps(nb))
    r = run([a.gpudoctor, "scan", "--sarif", code], cwd=a.work)
    sarif = os.path.join(a.work, "scan.sarif")
    with open(sarif, "wb") as f:
        f.write(r.stdout)
    check(r.returncode == 1, f"scan --sarif: {r.returncode} {text(r.stderr)}")
    validate = (
        "import json, sys, jsonschema\n"
        "schema = json.load(open(sys.argv[1]))\n"
        "doc = json.load(open(sys.argv[2]))\n"
        "jsonschema.Draft4Validator.check_schema(schema)\n"
        "errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(doc), key=str)\n"
        "for e in errors[:10]: print(list(e.absolute_path), e.message)\n"
        "results = doc['runs'][0]['results']\n"
        "print(len(results), 'results', sorted({r['ruleId'] for r in results}))\n"
        "sys.exit(1 if errors or len(results) < 2 else 0)\n"
    )
    r = run([SYSTEM_PYTHON, "-c", validate, schema, sarif])
    print(text(r.stdout), text(r.stderr)[-2000:])
    check(r.returncode == 0, "the SARIF output validates against the SARIF 2.1.0 schema, with both files' results")


CASES = {
    "portable_needs_glibc_only": case_portable_needs_glibc_only,
    "portable_runs_alone": case_portable_runs_alone,
    "deb_lintian": case_deb_lintian,
    "release_script": case_release_script,
    "deb_unpacked": case_deb_unpacked,
    "precommit_hook": case_precommit_hook,
    "sarif_schema": case_sarif_schema,
}


def arguments(ap):
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--portable", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)


def prepare(a):
    for k in ("gpudoctor", "portable", "build", "source"):
        setattr(a, k, os.path.abspath(getattr(a, k)))


if __name__ == "__main__":
    sys.exit(main(CASES, arguments, prepare))
