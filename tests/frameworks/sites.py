"""Synthesized Python installs for machine trees: the file layouts that pip, Debian and conda write
and the real contents of the files gpudoctor reads (torch/version.py as
tools/generate_torch_version.py writes it, build_info.py as gen_build_info.py writes it, dist-info
METADATA headers, conda-meta file names). GPU libraries are placeholder files by default, which is
enough for "is it there" and makes the loader model report them as unreadable, never as resolved;
with libs="elf" they are tiny real shared libraries (elf_libs.py) with the sonames, DT_NEEDED entries
and RPATH/RUNPATH of the real packages, and `kernels=` installs an nvcc-built fatbin fixture
(tests/fixtures/fatbin) as torch/lib/libtorch_cuda.so.
"""
import json
import os
import shutil

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "fatbin")
ELF = None  # an elf_libs.ElfLibs, set by the replay before any scenario with libs="elf"

# DT_RPATH of torch's CUDA libraries in the wheels that take CUDA from the nvidia-* wheels: PyTorch's
# .ci/manywheel/build_cuda.sh ("Using nvidia libs from pypi": CUDA_RPATHS, LIB_SO_RPATH, and
# FORCE_RPATH=--force-rpath, so DT_RPATH and not DT_RUNPATH).
TORCH_RPATH = ":".join(f"$ORIGIN/../../nvidia/{c}/lib" for c in (
    "cublas", "cuda_cupti", "cuda_nvrtc", "cuda_runtime", "cudnn", "cufft", "curand", "cusolver", "cusparse",
    "nccl", "nvtx")) + ":$ORIGIN"

# The nvidia-* wheels by directory under site-packages/nvidia: distribution stem and the libraries in
# lib/ with what each needs (each library's RUNPATH is $ORIGIN, as in the wheels).
NVIDIA_WHEELS = {
    "cuda_runtime": ("nvidia-cuda-runtime", {"libcudart.so.{cuda}": ()}),
    "cublas": ("nvidia-cublas", {"libcublas.so.{cuda}": ("libcublasLt.so.{cuda}",), "libcublasLt.so.{cuda}": ()}),
    "cudnn": ("nvidia-cudnn", {"libcudnn.so.{cudnn}": ()}),
}
WHEEL_VERSIONS = {"cuda_runtime": "12.1.105", "cublas": "12.1.3.1", "cudnn8": "8.9.4.25", "cudnn9": "9.1.0.70"}

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


def dist(t, site, name, version, requires=(), files=(), installer="pip"):
    d = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    t.file(f"{d}/METADATA", metadata(name, version, requires))
    t.file(f"{d}/INSTALLER", installer + "\n")
    t.file(f"{d}/RECORD", "".join(f"{f},,\n" for f in files))


def quote(v):
    return "None" if v is None else repr(v)


def nvidia_wheels(t, site, cuda_major, components=("cuda_runtime", "cublas", "cudnn"), cudnn_major="9"):
    """nvidia-*-cuXX wheels with real libraries in site-packages/nvidia/<component>/lib; returns the
    Requires-Dist lines a framework that depends on them carries."""
    requires = []
    for comp in components:
        pkg, libs = NVIDIA_WHEELS[comp]
        version = WHEEL_VERSIONS["cudnn" + cudnn_major] if comp == "cudnn" else WHEEL_VERSIONS[comp]
        for lib, needed in libs.items():
            name = lib.format(cuda=cuda_major, cudnn=cudnn_major)
            ELF.install(t, f"{site}/nvidia/{comp}/lib/{name}",
                        needed=[n.format(cuda=cuda_major, cudnn=cudnn_major) for n in needed], runpath="$ORIGIN")
        t.file(f"{site}/nvidia/{comp}/__init__.py", "")
        dist(t, site, f"{pkg}-cu{cuda_major}", version)
        requires.append(f'{pkg}-cu{cuda_major}; platform_system == "Linux" and platform_machine == "x86_64"')
    return requires


def glibc(t):
    """The C and C++ runtime libraries an nvcc-built fixture needs, as stubs with their sonames in
    Debian's multiarch directory (the loader model's default search path)."""
    lib = "/lib/x86_64-linux-gnu"
    ELF.install(t, f"{lib}/libc.so.6")
    ELF.install(t, f"{lib}/libm.so.6", needed=["libc.so.6"])
    ELF.install(t, f"{lib}/libgcc_s.so.1", needed=["libc.so.6"])
    ELF.install(t, f"{lib}/libstdc++.so.6", needed=["libm.so.6", "libc.so.6", "libgcc_s.so.1"])


def torch(t, site, version, cuda=None, hip=None, metadata_dir=True, old_style=False, libs="placeholder",
          kernels=None, wheels=("cuda_runtime", "cublas", "cudnn"), installer="pip"):
    """A torch install. libs="elf": real libtorch_cuda.so / libc10_cuda.so that need libcudart, libcublas
    and libcudnn through torch's DT_RPATH, and real nvidia-* wheels for `wheels` only. kernels: a fatbin
    fixture's file name, installed as libtorch_cuda.so (an nvcc-built library that needs only the C++
    runtime, which glibc() provides)."""
    tpl = TORCH_VERSION_PY_OLD if old_style else TORCH_VERSION_PY
    t.file(f"{site}/torch/__init__.py", "# torch\n")
    t.file(f"{site}/torch/version.py", tpl.format(version=version, cuda=quote(cuda), hip=quote(hip),
                                                   git="a8d6afb511a69687bbb2b7e88a3cf67917e1697e"))
    t.file(f"{site}/torch/lib/libtorch_cpu.so", "\x7fELF")
    t.file(f"{site}/torch/lib/libtorch_global_deps.so", "\x7fELF")
    requires = []
    if cuda:
        major = cuda.split(".")[0]
        lib = f"{site}/torch/lib"
        if libs == "elf":
            cuda_needed = [f"libcudart.so.{major}", f"libcublas.so.{major}", f"libcublasLt.so.{major}", "libcudnn.so.9"]
            ELF.install(t, f"{lib}/libc10_cuda.so", needed=[f"libcudart.so.{major}"], rpath=TORCH_RPATH)
            ELF.install(t, f"{lib}/libtorch_cuda.so", needed=["libc10_cuda.so"] + cuda_needed, rpath=TORCH_RPATH)
            requires = nvidia_wheels(t, site, major, wheels)
        else:
            t.file(f"{lib}/libtorch_cuda.so", "\x7fELF")
            t.file(f"{lib}/libc10_cuda.so", "\x7fELF")
            for comp in wheels:
                pkg = NVIDIA_WHEELS[comp][0]
                t.file(f"{site}/nvidia/{comp}/lib/placeholder", "")
                dist(t, site, f"{pkg}-cu{major}", "12.1.105" if comp != "cudnn" else "9.1.0.70")
                requires.append(f'{pkg}-cu{major}; platform_system == "Linux" and platform_machine == "x86_64"')
        if kernels:
            glibc(t)
            t.remove(f"{lib}/libc10_cuda.so")
            full = t.path(f"{lib}/libtorch_cuda.so")
            os.makedirs(os.path.dirname(full), exist_ok=True)
            shutil.copyfile(os.path.join(FIXTURES, kernels), full)
    if hip:
        t.file(f"{site}/torch/lib/libtorch_hip.so", "\x7fELF")
        t.file(f"{site}/torch/lib/libc10_hip.so", "\x7fELF")
    if metadata_dir:
        dist(t, site, "torch", version, requires, ["torch/__init__.py", "torch/version.py"], installer=installer)


def tensorflow(t, site, version, package="tensorflow", cuda=True, cuda_version="12.2", cudnn_version="8",
               libs="placeholder", wheels=()):
    """A TensorFlow install. libs="elf": a real libtensorflow_framework.so.2 whose RUNPATH points at the
    nvidia-* wheels (TensorFlow's cuda_rpath_flags: $ORIGIN/../../nvidia/X/lib and $ORIGIN/../nvidia/X/lib),
    with the nvidia-* wheels of `wheels`; TensorFlow dlopens its CUDA libraries, so nothing CUDA is in
    DT_NEEDED."""
    pairs = [("cpu_compiler", "/usr/lib/llvm-17/bin/clang")]
    if cuda:
        pairs += [("cuda_compute_capabilities", ["sm_50", "sm_60", "sm_70", "sm_80", "compute_90"]),
                  ("cuda_version", cuda_version), ("cudnn_version", cudnn_version)]
    pairs += [("is_cuda_build", cuda), ("is_rocm_build", False), ("is_tensorrt_build", cuda)]
    t.file(f"{site}/tensorflow/__init__.py", "# tensorflow\n")
    t.file(f"{site}/tensorflow/python/platform/build_info.py", TF_BUILD_INFO.format(pairs=repr(pairs)))
    requires = []
    if libs == "elf":
        runpath = ":".join(f"$ORIGIN/{up}nvidia/{c}/lib" for c in ("cublas", "cuda_runtime", "cudnn") for up in ("../../", "../"))
        ELF.install(t, f"{site}/tensorflow/libtensorflow_framework.so.2", runpath=runpath)
        for comp, cudnn in wheels:
            requires += nvidia_wheels(t, site, cuda_version.split(".")[0], (comp,), cudnn_major=cudnn)
    else:
        t.file(f"{site}/tensorflow/libtensorflow_framework.so.2", "\x7fELF")
    dist(t, site, package, version, requires)


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


def onnxruntime(t, site, cpu=True, gpu=True, version="1.20.1", libs="placeholder"):
    """An ONNX Runtime install. libs="elf": a real capi/libonnxruntime_providers_cuda.so that needs the
    CUDA 12 and cuDNN 9 libraries, with neither RPATH nor RUNPATH (so only LD_LIBRARY_PATH, the cache
    and the default directories find them)."""
    t.file(f"{site}/onnxruntime/__init__.py", f"__version__ = \"{version}\"\n")
    t.file(f"{site}/onnxruntime/capi/onnxruntime_pybind11_state.so", "\x7fELF")
    t.file(f"{site}/onnxruntime/capi/libonnxruntime_providers_shared.so", "\x7fELF")
    if gpu:
        provider = f"{site}/onnxruntime/capi/libonnxruntime_providers_cuda.so"
        if libs == "elf":
            ELF.install(t, provider, needed=["libcublasLt.so.12", "libcublas.so.12", "libcudart.so.12", "libcudnn.so.9"])
        else:
            t.file(provider, "\x7fELF")
        dist(t, site, "onnxruntime-gpu", version)
    if cpu:
        dist(t, site, "onnxruntime", version)


def cuda_toolkit(t, prefix="/usr/local/cuda-12.4", cuda_major="12", cudnn_major="9"):
    """A CUDA toolkit's runtime libraries (and cuDNN copied into it, as many installs do) under PREFIX/lib64."""
    for lib, needed in (("libcudart.so.{cuda}", ()), ("libcublasLt.so.{cuda}", ()),
                        ("libcublas.so.{cuda}", ("libcublasLt.so.{cuda}",)), ("libcudnn.so.{cudnn}", ())):
        name = lib.format(cuda=cuda_major, cudnn=cudnn_major)
        ELF.install(t, f"{prefix}/lib64/{name}", needed=[n.format(cuda=cuda_major) for n in needed], runpath="$ORIGIN")


def conda_env(t, prefix, packages, name=None):
    """An activated conda environment: PREFIX/bin/python -> python3.11, PREFIX/conda-meta/NAME-VERSION-BUILD.json
    for each (name, version, build), CONDA_PREFIX / CONDA_DEFAULT_ENV, PREFIX/bin first on PATH. Returns
    its site-packages directory."""
    t.file(f"{prefix}/bin/python{PY}", "\x7fELF", mode=0o755)
    t.link(f"{prefix}/bin/python", f"python{PY}")
    t.link(f"{prefix}/bin/python3", f"python{PY}")
    t.file(f"{prefix}/lib/python{PY}/os.py", "")
    t.file(f"{prefix}/conda-meta/history", "==> 2024-05-02 10:11:12 <==\n# cmd: conda create -n env\n")
    for pkg, version, build in [("python", f"{PY}.9", "h955ad1f_0")] + list(packages):
        # The real files list every file of the package; gpudoctor reads only the names.
        t.file(f"{prefix}/conda-meta/{pkg}-{version}-{build}.json",
               json.dumps({"name": pkg, "version": version, "build": build, "files": []}) + "\n")
    t.env["CONDA_PREFIX"] = prefix
    t.env["CONDA_DEFAULT_ENV"] = name or prefix
    t.env["PATH"] = f"{prefix}/bin:" + t.env["PATH"]
    return f"{prefix}/lib/python{PY}/site-packages"


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
