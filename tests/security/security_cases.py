#!/usr/bin/env python3
"""Real-binary tests of what a hostile checkout or a careless environment must never get from
gpudoctor: a program of its choosing run, terminal escape sequences printed, a secret written into a
capture or a report.

Each case is one ctest test: security_cases.py --gpudoctor BIN --work DIR CASE. Exit 0 passes, 1
fails, 77 skips (ctest SKIP_RETURN_CODE) after printing why.
"""

import argparse
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile

SKIP = 77


class Skip(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def run(args, **kw):
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("timeout", 120)
    return subprocess.run(args, **kw)


def quiet_env(**extra):
    """No driver library is loaded: these tests are about files and output, not the driver."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        "GPUDOCTOR_NVML_LIBRARY": "none",
        "GPUDOCTOR_CUDA_LIBRARY": "none",
        "GPUDOCTOR_CUDART_LIBRARY": "none",
    }
    env.update(extra)
    return env


def write(path, content, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content)
    os.chmod(path, mode)


# --- a checkout that chooses what gpudoctor runs ----------------------------------------------


def case_pyenv_version_traversal(gpd, work):
    """CVE-2022-35861's shape: .python-version climbs out of $PYENV_ROOT/versions to a directory
    the checkout chose. `check` must not run the interpreter it points at."""
    pyenv = os.path.join(work, "home", ".pyenv")
    write(os.path.join(pyenv, "shims", "python3"),
          '#!/usr/bin/env bash\nset -e\nexec "%s/libexec/pyenv" exec "$0" "$@"\n' % pyenv, 0o755)
    marker = os.path.join(work, "executed")
    evil = os.path.join(work, "checkout", "evil")
    write(os.path.join(evil, "bin", "python3"), "#!/bin/sh\ntouch '%s'\necho 3.11\n" % marker, 0o755)
    checkout = os.path.join(work, "checkout", "project")
    os.makedirs(checkout, exist_ok=True)
    # From $PYENV_ROOT/versions up to "/", then down to the checkout's evil directory.
    ups = "../" * (os.path.join(pyenv, "versions").count("/"))
    write(os.path.join(checkout, ".python-version"), ups.rstrip("/") + evil + "\n")
    env = quiet_env(PATH=os.path.join(pyenv, "shims") + ":/usr/bin:/bin", PYENV_ROOT=pyenv)
    r = run([gpd, "check", "--json"], cwd=checkout, env=env)
    check(r.returncode in (0, 1), f"check exited {r.returncode}: {r.stderr.decode()[-500:]}")
    check(not os.path.exists(marker), "check ran the interpreter a checkout's .python-version chose")
    check(evil.encode() not in r.stdout, "the checkout's interpreter appears in the report")


def case_scan_hostile_file_names(gpd, work):
    """A file name with an OSC title sequence and a screen clear is printed escaped."""
    tree = os.path.join(work, "repo")
    name = "model\x1b]0;pwned\x07\x1b[2J.py"
    write(os.path.join(tree, name),
          "import torch\nfrom torch.utils.data import DataLoader\n\n\ndef run(data):\n"
          "    for x in DataLoader(data, batch_size=8, num_workers=2):\n        x.cuda()\n")
    os.symlink("/etc/passwd", os.path.join(tree, "passwd.py"))
    for fmt in ([], ["--color", "never"]):
        r = run([gpd, "scan", tree] + fmt, env=quiet_env())
        out = r.stdout + r.stderr
        check(b"\x1b" not in out and b"\x07" not in out, f"raw control characters in scan output: {out[:400]!r}")
        check(b"\\x1b]0;pwned\\x07\\x1b[2J.py" in out, f"the escaped name is not shown: {out[:600]!r}")
        check(b"root:" not in out, "scan read a file through a symlink out of the tree")
        check(b"passwd.py: a symlink out of the scanned tree" in out, f"no note on the skipped link: {out!r}")


def case_libs_hostile_soname(gpd, work):
    """A DT_NEEDED string carrying escape sequences is printed escaped by `libs`."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise Skip("no C compiler to build the ELF files")
    soname = "libevil\x1b[2J\x1b]0;x\x07.so"
    src = os.path.join(work, "e.c")
    write(src, "int f(void) { return 1; }\n")
    lib = os.path.join(work, "libevil.so")
    r = run([cc, "-shared", "-fPIC", "-o", lib, src, "-Wl,-soname," + soname])
    check(r.returncode == 0, r.stderr.decode())
    main_c = os.path.join(work, "m.c")
    write(main_c, "int f(void);\nint main(void) { return f(); }\n")
    exe = os.path.join(work, "app")
    r = run([cc, "-o", exe, main_c, lib])
    check(r.returncode == 0, r.stderr.decode())
    r = run([gpd, "libs", exe], env=quiet_env())
    out = r.stdout + r.stderr
    check(b"\x1b" not in out and b"\x07" not in out, f"raw control characters in libs output: {out!r}")
    check(b"libevil\\x1b[2J" in out, f"the escaped soname is not shown: {out!r}")


# --- secrets ------------------------------------------------------------------------------------

# Forty variables a user may well have set, with values shaped like the real thing. Each value is
# unique, so finding any of it anywhere is a leak. The first ones pass the allowlist's prefixes by
# name; the rest are common credentials that no prefix should ever let through.
SECRETS = {
    "NVIDIA_API_KEY": "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",
    "NVIDIA_NGC_API_KEY": "bXlOZ2NLZXkxMjM0NTY3ODkwOmFiY2RlZi0xMjM0LTU2Nzg",
    "NVIDIA_TOKEN": "nvtok-4f1c9e2a7b3d8e6f0a5c",
    "NVIDIA_SESSION": "sess-b2c4d6e8f0a1c3e5",
    "TF_VAR_db_password": "Sup3r-S3cret-Passw0rd!",
    "TF_TOKEN_app_terraform_io": "Xy9aBcDeFgHiJk.atlasv1.LmNoPqRsTuVwXyZ0123456789abcdefghij",
    "TF_VAR_api_key": "tfvar-apikey-7d3e1a9c5b",
    "TF_CREDENTIALS": "tfcred-0a9b8c7d6e5f",
    "CUDA_AUTH_TOKEN": "cudatok-11aa22bb33cc",
    "NCCL_SECRET": "ncclsecret-9f8e7d6c5b4a",
    "TORCH_HUB_TOKEN": "torchhub-5e4d3c2b1a09",
    "PYTORCH_COOKIE": "ptcookie-abcdef123456",
    "JAX_AUTH": "jaxauth-fedcba654321",
    "XLA_PASSWD": "xlapasswd-135792468",
    "HIP_KEY": "hipkey-246813579",
    "ROCM_CREDENTIAL": "rocmcred-97531",
    "TPU_SESSION_KEY": "tpusess-86420",
    "HF_TOKEN": "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567",
    "HUGGING_FACE_HUB_TOKEN": "hf_ZyXwVuTsRqPoNmLkJiHgFeDcBa76543210",
    "OPENAI_API_KEY": "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90",
    "ANTHROPIC_API_KEY": "sk-ant-api03-Zz99Yy88Xx77Ww66Vv55Uu44Tt33Ss22Rr11",
    "WANDB_API_KEY": "0123456789abcdef0123456789abcdef01234567",
    "AWS_ACCESS_KEY_ID": "AKIAQWERTYUIOPASDF12",
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY9",
    "AWS_SESSION_TOKEN": "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQ",
    "GITHUB_TOKEN": "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3s",
    "GH_PAT": "github_pat_11AAAAAAA0bbbbbbbbbbbb_cccccccccccccccccccccccccc",
    "GITLAB_TOKEN": "glpat-xYzAbC123dEf456GhI",
    "SLACK_BOT_TOKEN": "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUv",
    "DATABASE_PASSWORD": "db-pa55-w0rd-7788",
    "MLFLOW_TRACKING_PASSWORD": "mlflow-pw-4433",
    "COMET_API_KEY": "cometkey-5566778899",
    "NEPTUNE_API_TOKEN": "eyJhcGlfYWRkcmVzcyI6Imh0dHBzOi8vYXBwLm5lcHR1bmUuYWkifQ.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
    "GOOGLE_API_KEY": "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7",
    "AZURE_OPENAI_KEY": "azurekey-0f1e2d3c4b5a",
    "KAGGLE_KEY": "kagglekey-a1b2c3d4e5f6",
    "DOCKER_AUTH_CONFIG": "eyJhdXRocyI6e319-dockerauth",
    "PIP_INDEX_URL": "https://ci-user:pipP4ssw0rd@pypi.internal.example/simple",
    "CUDA_CACHE_PATH_URL": "https://cacheuser:c4ch3pw@cache.example/cuda",
    "SSH_PRIVATE_KEY": "-----BEGIN OPENSSH PRIVATE KEY-----b3BlbnNzaC1rZXktdjEAAAAA",
}


def secret_values():
    vals = []
    for v in SECRETS.values():
        vals.append(v.encode())
        # URL credentials: the password part alone must not appear either.
        if "://" in v and "@" in v:
            vals.append(v.split("://", 1)[1].split("@", 1)[0].split(":", 1)[1].encode())
    return vals


def leaks(blob):
    return [v.decode() for v in secret_values() if v in blob]


def case_capture_keeps_no_secret(gpd, work):
    check(len(SECRETS) == 40, f"{len(SECRETS)} variables, the test names 40")
    env = quiet_env(CUDA_VISIBLE_DEVICES="0", NVIDIA_VISIBLE_DEVICES="all", TF_CPP_MIN_LOG_LEVEL="2", **SECRETS)
    archive = os.path.join(work, "machine.tar.gz")
    r = run([gpd, "capture", "-o", archive], env=env)
    check(r.returncode == 0, f"capture exited {r.returncode}: {r.stderr.decode()[-800:]}")
    check(not leaks(r.stdout + r.stderr), f"capture printed secrets: {leaks(r.stdout + r.stderr)}")
    everything = b""
    names = []
    with tarfile.open(archive) as tar:
        for m in tar.getmembers():
            names.append(m.name)
            everything += m.name.encode() + b"\n" + m.linkname.encode() + b"\n"
            if m.isfile():
                everything += tar.extractfile(m).read()
    found = leaks(everything)
    check(not found, f"the archive holds secret values: {found}")
    # The variables that decide GPU behaviour are still there, and so is the user's own line.
    check(b"CUDA_VISIBLE_DEVICES=0" in everything, "the GPU variables were lost too")
    check(b"TF_CPP_MIN_LOG_LEVEL=2" in everything, "TensorFlow's own TF_ variable was lost")
    passwd = [n for n in names if n.endswith("etc/passwd")]
    if passwd:
        with tarfile.open(archive) as tar:
            lines = tar.extractfile(passwd[0]).read().decode().splitlines()
        check(len(lines) <= 1, f"/etc/passwd captured with {len(lines)} lines, want the running user's only")

    for fmt in (["--json"], ["--markdown"], []):
        r = run([gpd, "check", "--root", archive] + fmt, env=quiet_env())
        found = leaks(r.stdout + r.stderr)
        check(not found, f"check --root {' '.join(fmt)} printed secrets: {found}")
        r = run([gpd, "check"] + fmt, env=env)
        found = leaks(r.stdout + r.stderr)
        check(not found, f"live check {' '.join(fmt)} printed secrets: {found}")
        check(r.returncode in (0, 1), f"check {fmt} exited {r.returncode}")

    r = run([gpd, "capture", "--list"], env=env)
    check(r.returncode == 0, f"capture --list exited {r.returncode}: {r.stderr.decode()}")
    out = r.stdout.decode()
    found = leaks(r.stdout + r.stderr)
    check(not found, f"capture --list printed secrets: {found}")
    check("NVIDIA_API_KEY" in out and "TF_VAR_db_password" in out, "--list does not name the withheld variables")
    check("CUDA_VISIBLE_DEVICES=0" in out, "--list does not show the kept variables")
    check("/proc/" in out, "--list shows no path")


CASES = {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    work = tempfile.mkdtemp(prefix=a.case + ".", dir=a.work)
    try:
        CASES[a.case](os.path.abspath(a.gpudoctor), work)
    except Skip as e:
        print(f"SKIP {a.case}: {e}")
        return SKIP
    except AssertionError as e:
        print(f"FAIL {a.case}: {e}")
        return 1
    finally:
        for dirpath, dirnames, _ in os.walk(work):
            for d in dirnames:
                try:
                    os.chmod(os.path.join(dirpath, d), 0o755)
                except OSError:
                    pass
        shutil.rmtree(work, ignore_errors=True)
    print(f"PASS {a.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
