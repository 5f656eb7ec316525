#!/usr/bin/env python3
"""sys.path read from files (what `gpudoctor check` does, never starting Python) against each
interpreter's own sys.path, for every interpreter on this machine and every kind of environment:
pyenv's versions (2.7 to 3.13 where installed), Debian's python3, stdlib venvs with and without
system site packages, virtualenv's, a uv-style pyvenv.cfg, a conda-like prefix, a user site, and
.pth files with path lines and import lines. The import lines must never run under `check`.

  static_sys_path.py --gpudoctor BIN --work DIR
Exit 0 passes, 1 fails.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def run(argv, env, **kw):
    return subprocess.run(argv, env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, **kw)


def own_sys_path(python, env):
    r = run([python, "-c", "import sys; print('\\n'.join(sys.path))"], env)
    check(r.returncode == 0, f"{python}: {r.stderr.decode()[-300:]}")
    return r.stdout.decode().splitlines()


def existing(paths):
    # '' (the script directory) and entries that do not exist (the stdlib zip) hold no package.
    return [p for p in paths if p and os.path.exists(p)]


def gpudoctor_view(gpd, python, env):
    r = run([gpd, "check", "--json", "--python", python], env)
    check(r.returncode in (0, 1), f"check --python {python}: exit {r.returncode} {r.stderr.decode()[-300:]}")
    for e in json.loads(r.stdout)["facts"]["framework"]["environments"]:
        if e["interpreter"] == python:
            check(isinstance(e["sys_path"], list), f"{python}: sys_path unknown: {e['sys_path']}")
            return e
    raise AssertionError(f"{python} is not among the environments check found")


def site_packages(python, env):
    r = run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], env)
    return r.stdout.decode().strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    gpd = os.path.abspath(a.gpudoctor)
    work = os.path.abspath(os.path.join(a.work, "static-sys-path"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    home = os.path.join(work, "home")
    os.makedirs(home)
    # A clean environment: no PYTHONPATH, a HOME of our own, PATH without shims.
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"}

    pyenv_root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    bases = sorted(glob.glob(os.path.join(pyenv_root, "versions", "*", "bin", "python")))
    bases = [p for p in bases if os.access(p, os.X_OK)]
    for p in ("/usr/bin/python3", "/usr/bin/python2.7"):
        if os.access(p, os.X_OK):
            bases.append(p)
    check("/usr/bin/python3" in bases, "Debian's python3 is there")
    pythons = list(bases)
    def version_key(p):
        return tuple(int(x) for x in site_packages(p, env).split("."))
    threes = sorted((p for p in bases if site_packages(p, env).startswith("3.")), key=version_key)
    twos = [p for p in bases if site_packages(p, env).startswith("2.")]

    marker = os.path.join(work, "pth-import-ran")
    def add_pth(site, name, extra_dir):
        os.makedirs(site, exist_ok=True)
        os.makedirs(extra_dir, exist_ok=True)
        with open(os.path.join(site, name), "w") as f:
            f.write(f"# a comment\n{extra_dir}\n../no-such-dir\nimport os; open({marker!r}, 'w').close()\n")

    # Environments of each kind, over the oldest and newest 3.x and Debian's.
    picks = list(dict.fromkeys([threes[0], threes[-1], "/usr/bin/python3"])) if threes else []
    for i, base in enumerate(picks):
        xy = site_packages(base, env)
        for system_site in (False, True):
            venv = os.path.join(work, f"venv{i}{'-system' if system_site else ''}")
            args = [base, "-m", "venv", "--without-pip"] + (["--system-site-packages"] if system_site else []) + [venv]
            r = run(args, env)
            check(r.returncode == 0, f"{args}: {r.stderr.decode()[-300:]}")
            add_pth(os.path.join(venv, "lib", f"python{xy}", "site-packages"), "extra.pth", os.path.join(venv, "extra-src"))
            pythons.append(os.path.join(venv, "bin", "python"))
        # uv writes pyvenv.cfg with its own keys; Python reads only home and include-system-site-packages.
        uv = os.path.join(work, f"uv{i}")
        os.makedirs(os.path.join(uv, "bin"))
        os.makedirs(os.path.join(uv, "lib", f"python{xy}", "site-packages"))
        os.symlink(os.path.realpath(base), os.path.join(uv, "bin", "python"))
        with open(os.path.join(uv, "pyvenv.cfg"), "w") as f:
            f.write(f"home = {os.path.dirname(os.path.realpath(base))}\nimplementation = CPython\nuv = 0.4.0\n"
                    f"version_info = {xy}.0\ninclude-system-site-packages = false\n")
        pythons.append(os.path.join(uv, "bin", "python"))
    if shutil.which("virtualenv"):
        for i, base in enumerate(picks[-1:] + twos[:1]):
            ve = os.path.join(work, f"virtualenv{i}")
            r = run(["virtualenv", "--no-pip", "--no-setuptools", "--no-wheel", "--no-periodic-update", "-p", base, ve], env)
            check(r.returncode == 0, f"virtualenv -p {base}: {r.stderr.decode()[-500:]}")
            pythons.append(os.path.join(ve, "bin", "python"))
    # A conda-like prefix: its own bin/pythonX.Y (a copy), stdlib entries linked, its own site-packages.
    pyenv_threes = [p for p in threes if p.startswith(pyenv_root)]
    if pyenv_threes:
        base = pyenv_threes[-1]
        xy = site_packages(base, env)
        src_prefix = os.path.dirname(os.path.dirname(os.path.realpath(base)))
        conda = os.path.join(work, "conda-env")
        os.makedirs(os.path.join(conda, "bin"))
        os.makedirs(os.path.join(conda, "conda-meta"))
        shutil.copy2(os.path.realpath(base), os.path.join(conda, "bin", f"python{xy}"))
        os.symlink(f"python{xy}", os.path.join(conda, "bin", "python"))
        stdlib = os.path.join(conda, "lib", f"python{xy}")
        os.makedirs(os.path.join(stdlib, "site-packages"))
        for name in os.listdir(os.path.join(src_prefix, "lib", f"python{xy}")):
            if name != "site-packages":
                os.symlink(os.path.join(src_prefix, "lib", f"python{xy}", name), os.path.join(stdlib, name))
        add_pth(os.path.join(stdlib, "site-packages"), "conda-dev.pth", os.path.join(conda, "src"))
        pythons.append(os.path.join(conda, "bin", "python"))
    # A user site with a .pth file, for every interpreter that reads one.
    for base in bases:
        xy = site_packages(base, env)
        add_pth(os.path.join(home, ".local", "lib", f"python{xy}", "site-packages"), "user.pth", os.path.join(home, "src", xy))

    if os.path.exists(marker):
        os.unlink(marker)  # the set-up above ran interpreters; from here on, only gpudoctor runs before each check
    ok = 0
    for python in pythons:
        view = gpudoctor_view(gpd, python, env)
        check(not os.path.exists(marker), f"check --python {python} ran a .pth import line")
        mine = existing(view["sys_path"])
        theirs = existing(own_sys_path(python, env))
        check(mine == theirs, f"{python}: sys.path read from files differs from the interpreter's\n"
                              f"  files:       {mine}\n  interpreter: {theirs}")
        check(view["sys_path_source"] == "layout", f"{python}: source {view['sys_path_source']}")
        ok += 1
        print(f"same sys.path: {python} ({len(theirs)} entries)")
        if os.path.exists(marker):
            os.unlink(marker)  # the interpreter itself ran it; gpudoctor must not
    # The notes say where a .pth import line was not run.
    venv_view = gpudoctor_view(gpd, os.path.join(work, "venv0", "bin", "python"), env) if picks else None
    if venv_view:
        check(any("extra.pth: 1 import line not run" in n for n in venv_view["sys_path_notes"]),
              f"notes: {venv_view['sys_path_notes']}")
    # PYTHONNOUSERSITE turns the user site off, for the interpreter and for gpudoctor alike.
    nouser = dict(env, PYTHONNOUSERSITE="1")
    view = gpudoctor_view(gpd, "/usr/bin/python3", nouser)
    check(existing(view["sys_path"]) == existing(own_sys_path("/usr/bin/python3", nouser)), "PYTHONNOUSERSITE")
    check(not os.path.exists(marker), "no import line ran")
    print(f"{ok} interpreters and environments: sys.path read from files equals the interpreter's own")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print(f"FAIL: {e}")
        sys.exit(1)
