#!/usr/bin/env python3
"""Framework-layer scenarios: synthesized Python installs on the machine trees of tests/machines,
diagnosed with `gpudoctor check --root TREE --json` (nothing is executed under --root). Each scenario
names the exact set of framework-layer finding ids it must produce, and text that must appear in a
finding's message or fix.

  replay_frameworks.py --gpudoctor build/gpudoctor --work build/framework-trees [--only NAME]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "machines"))
sys.path.insert(0, HERE)
import trees as T  # noqa: E402
import sites as S  # noqa: E402

SCENARIOS = []
VENV = "/home/ana/proj/.venv"


def scenario(ids=(), contains=(), severity=None):
    def register(fn):
        SCENARIOS.append(dict(name=fn.__name__, build=fn, ids=set(ids), contains=tuple(contains), severity=severity))
        return fn
    return register


def desktop(t, cuda=12020, driver="535.104.05"):
    T.nvidia_desktop(t)
    S.driver_answers(t, driver=driver, cuda=cuda)


@scenario(ids={"torch.cpu_only_build"},
          contains=("torch 2.5.1+cpu in the venv " + VENV + " is a CPU-only build",
                    "torch==2.5.1 --index-url https://download.pytorch.org/whl/cu121"),
          severity={"torch.cpu_only_build": "error"})
def torch_cpu_in_venv_on_nvidia(t):
    desktop(t)
    S.torch(t, S.venv(t, VENV), "2.5.1+cpu")


@scenario()
def torch_cu118_on_driver_12_2(t):
    desktop(t)
    S.torch(t, S.venv(t, VENV), "2.4.1+cu118", cuda="11.8")


@scenario()
def torch_cu121_on_driver_12_2(t):
    desktop(t)
    S.torch(t, S.venv(t, VENV), "2.5.1+cu121", cuda="12.1")


@scenario(ids={"torch.cuda_too_new_for_driver"},
          contains=("torch 2.6.0+cu124 needs a driver supporting CUDA 12.4; yours (535.104.05) supports 12.2",),
          severity={"torch.cuda_too_new_for_driver": "warning"})
def torch_cu124_on_driver_12_2(t):
    desktop(t)
    S.torch(t, S.venv(t, VENV), "2.6.0+cu124", cuda="12.4")


@scenario(ids={"torch.cuda_too_new_for_driver"},
          contains=("torch 2.7.0+cu128 needs a driver supporting CUDA 12.8; yours (535.104.05) supports 12.2",
                    "torch==2.7.0 --index-url https://download.pytorch.org/whl/cu118"))
def torch_cu128_on_driver_12_2(t):
    desktop(t)
    S.torch(t, S.venv(t, VENV), "2.7.0+cu128", cuda="12.8")


@scenario(ids={"torch.cuda_too_new_for_driver"},
          contains=("yours (470.256.02) supports 11.4", "too old"),
          severity={"torch.cuda_too_new_for_driver": "error"})
def torch_cu121_on_driver_11_4(t):
    desktop(t, cuda=11040, driver="470.256.02")
    S.torch(t, S.venv(t, VENV), "2.5.1+cu121", cuda="12.1")


@scenario()
def torch_pypi_cuda_wheel_without_suffix(t):
    # PyPI's Linux wheels carry no +cuXXX suffix: version.py's cuda field is what counts.
    desktop(t, cuda=12080, driver="570.124.06")
    S.torch(t, S.venv(t, VENV), "2.7.0", cuda="12.6")


@scenario(ids={"torch.rocm_build_on_nvidia"}, contains=("is a ROCm (AMD) build",))
def torch_rocm_on_nvidia(t):
    desktop(t)
    S.torch(t, S.venv(t, VENV), "2.5.1+rocm6.2", hip="6.2.41133-dd7f95766")


@scenario(ids={"torch.cuda_build_on_amd"}, contains=("https://download.pytorch.org/whl/rocm",))
def torch_cuda_on_amd(t):
    T.amd_workstation(t)
    S.torch(t, S.venv(t, VENV), "2.7.0+cu128", cuda="12.8")


@scenario(ids={"torch.cpu_only_build"}, severity={"torch.cpu_only_build": "info"})
def torch_cpu_on_machine_without_gpu(t):
    T.no_gpu_vm(t)
    S.torch(t, S.venv(t, VENV), "2.5.1+cpu")


@scenario(ids={"torch.cpu_only_build"},
          contains=("torch 1.13.0a0 in python3 on PATH (/usr/bin/python3) is a CPU-only build",
                    "/usr/lib/python3/dist-packages/torch"))
def debian_python3_torch(t):
    # Debian's python3-torch: dist-packages, an egg-info directory, old-style version.py.
    desktop(t)
    site = S.debian_python(t)
    S.torch(t, site, "1.13.0a0", metadata_dir=False, old_style=True)
    t.file(f"{site}/torch-1.13.0a0+gitunknown.egg-info/PKG-INFO", S.metadata("torch", "1.13.0a0+gitunknown"))


@scenario(ids={"torch.shadowed"}, contains=("/home/ana/proj/torch.py in the current directory shadows",))
def torch_shadowed_by_local_file(t):
    desktop(t)
    site = S.venv(t, VENV)
    S.torch(t, site, "2.5.1+cu121", cuda="12.1")
    t.file("/home/ana/proj/torch.py", "import numpy\n")
    S.captured_python(t, "/home/ana/proj", [{
        "interpreter": VENV + "/bin/python", "origin": "virtual_env", "label": "the venv " + VENV,
        "version": S.PY, "prefix": VENV,
        "sys_path": ["/usr/lib/python311.zip", "/usr/lib/python3.11", "/usr/lib/python3.11/lib-dynload", site]}])


@scenario(ids={"torch.shadowed"}, contains=("comes before the installed torch on sys.path",))
def torch_shadowed_by_pythonpath_module(t):
    desktop(t)
    site = S.venv(t, VENV)
    S.torch(t, site, "2.5.1+cu121", cuda="12.1")
    t.file("/home/ana/lib/torch/__init__.py", "")  # someone's package called torch, no version.py
    t.env["PYTHONPATH"] = "/home/ana/lib"


@scenario(ids={"torch.multiple_installs", "torch.cpu_only_build"},
          contains=("2 copies of torch are installed", "torch 2.1.0+cpu in"))
def torch_in_user_site_and_system(t):
    desktop(t)
    system = S.debian_python(t)
    user = "/home/ana/.local/lib/python3.11/site-packages"
    S.torch(t, user, "2.1.0+cpu")
    S.torch(t, system, "2.5.1+cu121", cuda="12.1")
    S.captured_python(t, "/home/ana", [{
        "interpreter": "/usr/bin/python3", "origin": "path", "label": "python3 on PATH (/usr/bin/python3)",
        "version": S.PY, "prefix": "/usr",
        "sys_path": ["/usr/lib/python311.zip", "/usr/lib/python3.11", "/usr/lib/python3.11/lib-dynload", user,
                     "/usr/local/lib/python3.11/dist-packages", system]}])


@scenario(ids={"torch.arch_unsupported"},
          contains=("torch 2.5.1+cu121 has kernels for sm_50…sm_90; this GPU is sm_120", "no kernel image is available"))
def torch_cu121_on_rtx_5090(t):
    T.nvidia_desktop(t)
    S.driver_answers(t, driver="570.124.06", cuda=12080, cc=(12, 0), name="NVIDIA GeForce RTX 5090")
    S.torch(t, S.venv(t, VENV), "2.5.1+cu121", cuda="12.1")


@scenario()
def torch_cu128_on_rtx_5090(t):
    T.nvidia_desktop(t)
    S.driver_answers(t, driver="570.124.06", cuda=12080, cc=(12, 0), name="NVIDIA GeForce RTX 5090")
    S.torch(t, S.venv(t, VENV), "2.7.0+cu128", cuda="12.8")


@scenario(ids={"tf.cpu_only_build"}, contains=("tensorflow-cpu 2.15.0 in the venv",))
def tensorflow_cpu_package(t):
    desktop(t)
    S.tensorflow(t, S.venv(t, VENV), "2.15.0", package="tensorflow-cpu", cuda=False)


@scenario(ids={"tf.missing_gpu_libs"},
          contains=("tensorflow 2.15.0 needs libcudart.so.12, libcublas.so.12, libcublasLt.so.12, libcudnn.so.8",))
def tensorflow_without_cuda_libraries(t):
    desktop(t)
    S.tensorflow(t, S.venv(t, VENV), "2.15.0", cuda_version="12.2", cudnn_version="8")


@scenario(ids={"jax.cpu_only"}, contains=("jax[cuda12]",))
def jax_without_cuda_plugin(t):
    desktop(t)
    S.jax(t, S.venv(t, VENV))


@scenario()
def jax_with_cuda_plugin(t):
    desktop(t)
    S.jax(t, S.venv(t, VENV), plugin=True)


@scenario(ids={"ort.cpu_package_shadows_gpu"}, contains=("the CPU package wins the import",))
def onnxruntime_both_packages(t):
    desktop(t)
    S.onnxruntime(t, S.venv(t, VENV))


@scenario()
def onnxruntime_gpu_alone(t):
    desktop(t)
    S.onnxruntime(t, S.venv(t, VENV), cpu=False)


@scenario(ids={"paddle.cpu_only_build"})
def paddle_cpu(t):
    desktop(t)
    S.paddle(t, S.venv(t, VENV))


@scenario()
def paddle_gpu(t):
    desktop(t)
    S.paddle(t, S.venv(t, VENV), version="2.6.1", cuda="12.0")


def framework_findings(report):
    return [f for f in report["findings"] if f["layer"] == "framework"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only")
    args = ap.parse_args()
    failures = 0
    for sc in SCENARIOS:
        if args.only and sc["name"] != args.only:
            continue
        root = os.path.join(args.work, sc["name"])
        t = T.Tree(root)
        sc["build"](t)
        t.finish()
        r = subprocess.run([args.gpudoctor, "check", "--root", root, "--json"], capture_output=True, text=True)
        problems = []
        if r.returncode not in (0, 1):
            problems.append(f"exit {r.returncode}: {r.stderr.strip()}")
        else:
            found = framework_findings(json.loads(r.stdout))
            ids = {f["id"] for f in found}
            if ids != sc["ids"]:
                problems.append(f"framework findings {sorted(ids)}, expected {sorted(sc['ids'])}")
            text = "\n".join(f["message"] + "\n" + f["fix"] + "\n" + "\n".join(f["evidence"]) for f in found)
            for c in sc["contains"]:
                if c not in text:
                    problems.append(f"no finding says {c!r}")
            for fid, sev in (sc["severity"] or {}).items():
                got = [f["severity"] for f in found if f["id"] == fid]
                if got and got[0] != sev:
                    problems.append(f"{fid} has severity {got[0]}, expected {sev}")
            if problems:
                problems.append("findings:\n" + text)
        status = "ok" if not problems else "FAIL"
        print(f"{status:4} {sc['name']}")
        for p in problems:
            print("     " + p.replace("\n", "\n     "))
        failures += bool(problems)
    print(f"{failures} of {len(SCENARIOS)} scenarios failed" if failures else f"all {len(SCENARIOS)} scenarios pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
