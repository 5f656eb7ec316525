"""Synthesized Python installs for machine trees: the file layouts that pip, Debian and conda write
and the real contents of the files gpudoctor reads (torch/version.py as
tools/generate_torch_version.py writes it, build_info.py as gen_build_info.py writes it, dist-info
METADATA headers). No binaries: GPU libraries are placeholder files, which is enough for
"is it there" and makes the loader model report them as unreadable, never as resolved.
"""
import json

PY = "3.11"

TORCH_VERSION_PY = """from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '{version}'
debug = False
cuda: Optional[str] = {cuda}
git_version = '{git}'
hip: Optional[str] = {hip}
"""

# Older generators wrote plain assignments (no annotations); Debian's python3-torch is one.
TORCH_VERSION_PY_OLD = """__version__ = '{version}'
debug = False
cuda = {cuda}
git_version = '{git}'
hip = {hip}
"""

TF_BUILD_INFO = '''# Copyright 2020 The TensorFlow Authors. All Rights Reserved.
"""Auto-generated module providing information about the build."""
import collections

build_info = collections.OrderedDict({pairs})
'''


def metadata(name, version, requires=()):
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", "Summary: synthesized for gpudoctor tests"]
    lines += [f"Requires-Dist: {r}" for r in requires]
    return "\n".join(lines) + "\n\n"


def dist(t, site, name, version, requires=(), files=()):
    d = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    t.file(f"{d}/METADATA", metadata(name, version, requires))
    t.file(f"{d}/INSTALLER", "pip\n")
    t.file(f"{d}/RECORD", "".join(f"{f},,\n" for f in files))


def quote(v):
    return "None" if v is None else repr(v)


def torch(t, site, version, cuda=None, hip=None, metadata_dir=True, old_style=False):
    tpl = TORCH_VERSION_PY_OLD if old_style else TORCH_VERSION_PY
    t.file(f"{site}/torch/__init__.py", "# torch\n")
    t.file(f"{site}/torch/version.py", tpl.format(version=version, cuda=quote(cuda), hip=quote(hip),
                                                   git="a8d6afb511a69687bbb2b7e88a3cf67917e1697e"))
    t.file(f"{site}/torch/lib/libtorch_cpu.so", "\x7fELF")
    t.file(f"{site}/torch/lib/libtorch_global_deps.so", "\x7fELF")
    requires = []
    if cuda:
        t.file(f"{site}/torch/lib/libtorch_cuda.so", "\x7fELF")
        t.file(f"{site}/torch/lib/libc10_cuda.so", "\x7fELF")
        major = cuda.split(".")[0]
        for comp, pkg in (("cuda_runtime", "nvidia-cuda-runtime"), ("cudnn", "nvidia-cudnn"), ("cublas", "nvidia-cublas")):
            t.file(f"{site}/nvidia/{comp}/lib/placeholder", "")
            dist(t, site, f"{pkg}-cu{major}", "12.1.105" if comp != "cudnn" else "9.1.0.70")
            requires.append(f'{pkg}-cu{major}; platform_system == "Linux" and platform_machine == "x86_64"')
    if hip:
        t.file(f"{site}/torch/lib/libtorch_hip.so", "\x7fELF")
        t.file(f"{site}/torch/lib/libc10_hip.so", "\x7fELF")
    if metadata_dir:
        dist(t, site, "torch", version, requires, ["torch/__init__.py", "torch/version.py"])


def tensorflow(t, site, version, package="tensorflow", cuda=True, cuda_version="12.2", cudnn_version="8"):
    pairs = [("cpu_compiler", "/usr/lib/llvm-17/bin/clang")]
    if cuda:
        pairs += [("cuda_compute_capabilities", ["sm_50", "sm_60", "sm_70", "sm_80", "compute_90"]),
                  ("cuda_version", cuda_version), ("cudnn_version", cudnn_version)]
    pairs += [("is_cuda_build", cuda), ("is_rocm_build", False), ("is_tensorrt_build", cuda)]
    t.file(f"{site}/tensorflow/__init__.py", "# tensorflow\n")
    t.file(f"{site}/tensorflow/python/platform/build_info.py", TF_BUILD_INFO.format(pairs=repr(pairs)))
    t.file(f"{site}/tensorflow/libtensorflow_framework.so.2", "\x7fELF")
    dist(t, site, package, version)


def jax(t, site, version="0.4.30", plugin=False):
    t.file(f"{site}/jax/__init__.py", "# jax\n")
    t.file(f"{site}/jax/version.py", f"_version: str = \"{version}\"\n")
    t.file(f"{site}/jaxlib/__init__.py", "")
    dist(t, site, "jax", version)
    dist(t, site, "jaxlib", version)
    if plugin:
        t.file(f"{site}/jax_plugins/xla_cuda12/__init__.py", "")
        t.file(f"{site}/jax_plugins/xla_cuda12/xla_cuda_plugin.so", "\x7fELF")
        t.file(f"{site}/jax_cuda12_plugin/__init__.py", "")
        dist(t, site, "jax-cuda12-plugin", version)
        dist(t, site, "jax-cuda12-pjrt", version)


def onnxruntime(t, site, cpu=True, gpu=True, version="1.20.1"):
    t.file(f"{site}/onnxruntime/__init__.py", f"__version__ = \"{version}\"\n")
    t.file(f"{site}/onnxruntime/capi/onnxruntime_pybind11_state.so", "\x7fELF")
    t.file(f"{site}/onnxruntime/capi/libonnxruntime_providers_shared.so", "\x7fELF")
    if gpu:
        t.file(f"{site}/onnxruntime/capi/libonnxruntime_providers_cuda.so", "\x7fELF")
        dist(t, site, "onnxruntime-gpu", version)
    if cpu:
        dist(t, site, "onnxruntime", version)


def paddle(t, site, version="2.6.1", cuda=None):
    t.file(f"{site}/paddle/__init__.py", "")
    t.file(f"{site}/paddle/version/__init__.py",
           f"# THIS FILE IS GENERATED FROM PADDLEPADDLE SETUP.PY\n#\nfull_version    = '{version}'\n"
           f"major           = '{version.split('.')[0]}'\nminor           = '{version.split('.')[1]}'\n"
           f"patch           = '{version.split('.')[2]}'\nrc              = '0'\n"
           f"cuda_version    = '{cuda or 'False'}'\ncudnn_version   = '{'8.9.7' if cuda else 'False'}'\n"
           f"is_tagged       = True\ncommit          = 'fbf852dd832bc0e63ae31cd4aa37defd829e4c03'\n"
           f"with_mkl        = 'ON'\n")
    dist(t, site, "paddlepaddle-gpu" if cuda else "paddlepaddle", version)


def venv(t, prefix, home="/usr/bin", system_site=False):
    """A `python -m venv` environment; returns its site-packages directory."""
    t.file(f"{prefix}/pyvenv.cfg", f"home = {home}\ninclude-system-site-packages = {'true' if system_site else 'false'}\n"
                                   f"version = {PY}.2\nexecutable = {home}/python{PY}\ncommand = {home}/python3 -m venv {prefix}\n")
    t.file(f"{prefix}/bin/python", "\x7fELF", mode=0o755)
    t.link(f"{prefix}/bin/python3", "python")
    t.env["VIRTUAL_ENV"] = prefix
    t.env["PATH"] = f"{prefix}/bin:" + t.env["PATH"]
    return f"{prefix}/lib/python{PY}/site-packages"


def debian_python(t):
    """Debian's /usr/bin/python3 -> python3.11; returns /usr/lib/python3/dist-packages."""
    t.file(f"/usr/bin/python{PY}", "\x7fELF", mode=0o755)
    t.link("/usr/bin/python3", f"python{PY}")
    t.file(f"/usr/lib/python{PY}/os.py", "")
    return "/usr/lib/python3/dist-packages"


def driver_answers(t, driver="535.104.05", cuda=12020, cc=(8, 9), name="NVIDIA GeForce RTX 4090"):
    """What NVML answered, as `gpudoctor capture` records it."""
    devices = [{"index": 0, "name": name, "cc_major": cc[0], "cc_minor": cc[1]}]
    answers = {"nvml": {"run": {"outcome": "answered"}, "driver_version": driver, "cuda_driver_version": cuda,
                        "device_count": 1, "devices": devices}}
    t.file("/.gpudoctor/driver.json", json.dumps(answers, indent=2) + "\n")


def captured_python(t, cwd, environments):
    """/.gpudoctor/python.json as `gpudoctor capture` writes it."""
    t.file("/.gpudoctor/python.json", json.dumps({"cwd": cwd, "environments": environments}, indent=2) + "\n")
