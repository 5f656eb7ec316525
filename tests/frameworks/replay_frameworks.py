#!/usr/bin/env python3
"""Framework-layer scenarios: synthesized Python installs on the machine trees of tests/machines,
diagnosed with `gpudoctor check --root TREE --json` (nothing is executed under --root). Each scenario
names the exact set of framework-layer finding ids it must produce, text that must appear in a
finding's message, fix or evidence, and optionally what `gpudoctor facts --json` must say.

Scenarios with real libraries build them with the C compiler (--cc, elf_libs.py) or install the
nvcc-built fatbin fixtures of tests/fixtures/fatbin.

  replay_frameworks.py --gpudoctor build/gpudoctor --work build/framework-trees [--cc cc] [--only NAME]
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
import elf_libs  # noqa: E402

SCENARIOS = []
VENV = "/home/ana/proj/.venv"


def scenario(ids=(), contains=(), severity=None, lacks=(), facts=None):
    """ids: the exact set of framework-layer finding ids; contains / lacks: text that must / must not
    appear in the findings; severity: {id: severity}; facts: a function of the facts document that
    returns a list of problems."""
    def register(fn):
        SCENARIOS.append(dict(name=fn.__name__, build=fn, ids=set(ids), contains=tuple(contains), severity=severity,
                              lacks=tuple(lacks), facts=facts))
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
          contains=("torch 2.5.1+cu121 has kernels for sm_50…sm_90; this GPU is sm_120", "no kernel image is available",
                    "from the published arch list for 2.5.1+cu121", "the installed libraries' fatbins were not read"))
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


# ---------------------------------------------------------------- kernels: the fatbin of libtorch_cuda.so
# tests/fixtures/fatbin: cubin_only.so holds sm_75 and sm_80 cubins; multi_arch.so sm_75 and sm_86 cubins
# and compute_90 PTX. The table row for 2.5.1+cu121 says sm_50...sm_90: the fatbin must win over it.

SITE = VENV + "/lib/python3.11/site-packages"
TORCH_CUDA = SITE + "/torch/lib/libtorch_cuda.so"


def gpu_desktop(t, cc, name, driver="570.124.06", cuda=12080):
    T.nvidia_desktop(t)
    S.driver_answers(t, driver=driver, cuda=cuda, cc=cc, name=name)


def torch_with_kernels(t, fixture):
    S.torch(t, S.venv(t, VENV), "2.5.1+cu121", cuda="12.1", kernels=fixture)


@scenario(lacks=("published arch list",))
def torch_fatbin_sm80_cubin_on_a100(t):
    gpu_desktop(t, (8, 0), "NVIDIA A100-SXM4-80GB")
    torch_with_kernels(t, "cubin_only.so")


@scenario()
def torch_fatbin_sm80_cubin_runs_on_rtx_3090(t):
    # 8.6 runs the sm_80 cubin: same major, higher minor.
    gpu_desktop(t, (8, 6), "NVIDIA GeForce RTX 3090")
    torch_with_kernels(t, "cubin_only.so")


@scenario(ids={"torch.arch_unsupported"},
          contains=("torch 2.5.1+cu121 has kernels for sm_75, sm_80; this GPU is sm_90",
                    f"from the fatbin of {TORCH_CUDA}: cubins sm_75 sm_80; PTX none (1 fatbin containers)",
                    "has compute capability 9.0 (sm_90, from NVML)",
                    "no kernel image for compute capability 9.0: cubins [sm_75, sm_80], PTX []"),
          lacks=("published arch list",), severity={"torch.arch_unsupported": "error"})
def torch_fatbin_sm80_cubin_on_h100(t):
    # The published list for cu121 includes sm_90; the installed library does not, and it decides.
    gpu_desktop(t, (9, 0), "NVIDIA H100 80GB HBM3")
    torch_with_kernels(t, "cubin_only.so")


@scenario(ids={"torch.arch_unsupported"},
          contains=("has kernels for sm_75, sm_80; this GPU is sm_120", "no kernel image is available"),
          severity={"torch.arch_unsupported": "error"})
def torch_fatbin_sm80_cubin_on_rtx_5090(t):
    gpu_desktop(t, (12, 0), "NVIDIA GeForce RTX 5090")
    torch_with_kernels(t, "cubin_only.so")


@scenario(ids={"torch.arch_unsupported"},
          contains=("torch 2.5.1+cu121 has no kernels compiled for sm_120 (sm_75, sm_86 and PTX compute_90); the "
                    "driver must JIT-compile compute_90 PTX",
                    f"from the fatbin of {TORCH_CUDA}: cubins sm_75 sm_86; PTX compute_90"),
          severity={"torch.arch_unsupported": "warning"})
def torch_fatbin_ptx_jit_on_rtx_5090(t):
    gpu_desktop(t, (12, 0), "NVIDIA GeForce RTX 5090")
    torch_with_kernels(t, "multi_arch.so")


@scenario()
def torch_fatbin_sm86_cubin_runs_on_rtx_4090(t):
    gpu_desktop(t, (8, 9), "NVIDIA GeForce RTX 4090")
    torch_with_kernels(t, "multi_arch.so")


@scenario(ids={"torch.arch_unsupported"},
          contains=("has kernels for sm_75, sm_86 and PTX compute_90; this GPU is sm_80",),
          severity={"torch.arch_unsupported": "error"})
def torch_fatbin_sm86_cubin_not_on_a100(t):
    # A cubin never runs on a lower minor (8.6 code on 8.0), and compute_90 PTX does not go back to 8.0.
    gpu_desktop(t, (8, 0), "NVIDIA A100-SXM4-80GB")
    torch_with_kernels(t, "multi_arch.so")


@scenario(ids={"torch.arch_unsupported"},
          contains=("this GPU is sm_90", "has compute capability 9.0 (sm_90, from PCI id 10de:2330"))
def torch_fatbin_gpu_known_by_pci_id(t):
    # No driver answers at all: the compute capability comes from the PCI device id (two H100s, one finding).
    T.nvidia_server(t)
    torch_with_kernels(t, "cubin_only.so")


# ---------------------------------------------------------------- the loader on real ELF files

def torch_build_facts(doc, framework="torch"):
    envs = doc["framework"]["environments"]
    return [b for e in envs for b in e["builds"] if b["framework"] == framework]


def expect_runtimes(framework, runtimes):
    def check(doc):
        builds = torch_build_facts(doc, framework)
        if not builds:
            return [f"no {framework} build in the facts"]
        got = builds[0]["cuda_runtimes"]
        problems = [] if got == runtimes else [f"{framework} cuda_runtimes {got}, expected {runtimes}"]
        if builds[0]["unresolved_libraries"]:
            problems.append(f"{framework} unresolved {[r['soname'] for r in builds[0]['unresolved_libraries']]}")
        return problems
    return check


@scenario(facts=expect_runtimes("torch", [f"libcudart.so.12 -> {SITE}/nvidia/cuda_runtime/lib/libcudart.so.12"]))
def torch_cuda_libs_from_nvidia_wheels(t):
    desktop(t)
    S.torch(t, S.venv(t, VENV), "2.5.1+cu121", cuda="12.1", libs="elf")


@scenario(ids={"toolchain.lib_unresolved"},
          contains=(f"torch 2.5.1+cu121 links libcudnn.so.9, which the dynamic loader cannot resolve",
                    f"libcudnn.so.9 (needed by {TORCH_CUDA}): not found"))
def torch_without_cudnn_wheel(t):
    desktop(t)
    S.torch(t, S.venv(t, VENV), "2.5.1+cu121", cuda="12.1", libs="elf", wheels=("cuda_runtime", "cublas"))


@scenario()
def tensorflow_with_its_cuda_wheels(t):
    desktop(t)
    S.tensorflow(t, S.venv(t, VENV), "2.15.0", cuda_version="12.2", cudnn_version="8", libs="elf",
                 wheels=(("cuda_runtime", "8"), ("cublas", "8"), ("cudnn", "8")))


@scenario(ids={"tf.missing_gpu_libs"},
          contains=("tensorflow 2.15.0 needs libcudnn.so.8; the loader cannot resolve it",
                    "nvidia-cudnn-cu12 9.1.0.70 is installed, but not the version this soname names"))
def tensorflow_cudnn8_build_with_cudnn9_wheel(t):
    # torch 2.4+ pulls nvidia-cudnn-cu12 9.x; TensorFlow 2.15 was built for cuDNN 8.
    desktop(t)
    S.tensorflow(t, S.venv(t, VENV), "2.15.0", cuda_version="12.2", cudnn_version="8", libs="elf",
                 wheels=(("cuda_runtime", "9"), ("cublas", "9"), ("cudnn", "9")))


def wheel_dirs(*components):
    return ":".join(f"{SITE}/nvidia/{c}/lib" for c in components)


@scenario(ids={"ort.cuda_provider_libs_missing"},
          contains=("onnxruntime-gpu 1.20.1's CUDA execution provider needs libcublasLt.so.12, libcublas.so.12, "
                    "libcudart.so.12, libcudnn.so.9",))
def onnxruntime_gpu_without_cuda_libraries(t):
    desktop(t)
    S.onnxruntime(t, S.venv(t, VENV), cpu=False, libs="elf")


@scenario(ids={"ort.cuda_provider_libs_missing"},
          contains=("CUDA execution provider needs libcudnn.so.9, which the loader cannot resolve",))
def onnxruntime_gpu_cudnn_wheel_not_on_the_path(t):
    desktop(t)
    site = S.venv(t, VENV)
    S.onnxruntime(t, site, cpu=False, libs="elf")
    S.nvidia_wheels(t, site, "12", ("cuda_runtime", "cublas", "cudnn"))
    t.env["LD_LIBRARY_PATH"] = wheel_dirs("cuda_runtime", "cublas")


@scenario(facts=expect_runtimes("onnxruntime", [f"libcudart.so.12 -> {SITE}/nvidia/cuda_runtime/lib/libcudart.so.12"]))
def onnxruntime_gpu_with_wheels_on_ld_library_path(t):
    desktop(t)
    site = S.venv(t, VENV)
    S.onnxruntime(t, site, cpu=False, libs="elf")
    S.nvidia_wheels(t, site, "12", ("cuda_runtime", "cublas", "cudnn"))
    t.env["LD_LIBRARY_PATH"] = wheel_dirs("cudnn", "cublas", "cuda_runtime")


@scenario(ids={"toolchain.multiple_cuda_runtimes"},
          contains=(f"{SITE}/nvidia/cuda_runtime/lib/libcudart.so.12 for torch 2.5.1+cu121",
                    "/usr/local/cuda-12.4/lib64/libcudart.so.12 for onnxruntime-gpu 1.20.1"),
          lacks=("/../",),
          severity={"toolchain.multiple_cuda_runtimes": "warning"})
def torch_and_onnxruntime_two_cuda_runtimes(t):
    # torch's DT_RPATH finds the wheel's runtime before LD_LIBRARY_PATH; ONNX Runtime has no RPATH and
    # takes the toolkit's from LD_LIBRARY_PATH.
    desktop(t)
    site = S.venv(t, VENV)
    S.torch(t, site, "2.5.1+cu121", cuda="12.1", libs="elf")
    S.onnxruntime(t, site, cpu=False, libs="elf")
    S.cuda_toolkit(t, "/usr/local/cuda-12.4")
    t.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-12.4/lib64"


@scenario()
def torch_and_onnxruntime_one_cuda_runtime(t):
    desktop(t)
    site = S.venv(t, VENV)
    S.torch(t, site, "2.5.1+cu121", cuda="12.1", libs="elf")
    S.onnxruntime(t, site, cpu=False, libs="elf")
    t.env["LD_LIBRARY_PATH"] = wheel_dirs("cudnn", "cublas", "cuda_runtime")


# ---------------------------------------------------------------- conda

CONDA = "/home/ana/miniconda3/envs/ml"
CONDA_SITE = CONDA + "/lib/python3.11/site-packages"
# A conda torch's libraries find PREFIX/lib through the RPATH conda-build writes ($ORIGIN/../../../.. from
# PREFIX/lib/python3.11/site-packages/torch/lib).
CONDA_RPATH = "$ORIGIN/../../../..:$ORIGIN"
PYTORCH_CHANNEL_CUDA = [("pytorch", "2.1.0", "py3.11_cuda12.1_cudnn8.9.2_0"), ("pytorch-cuda", "12.1", "ha16c6d3_5"),
                        ("pytorch-mutex", "1.0", "cuda"), ("cuda-cudart", "12.1.105", "0"),
                        ("libcublas", "12.1.0.26", "0")]


def conda_torch(t, packages, cuda, version="2.1.0", installer=None, cudart=True):
    """torch from conda: conda-meta records, torch/version.py, and real libraries that need the CUDA
    runtime and cuBLAS from PREFIX/lib."""
    site = S.conda_env(t, CONDA, packages, name="ml")
    if installer:  # conda-forge builds with pip: a dist-info whose INSTALLER says conda
        S.torch(t, site, version, cuda=cuda, installer=installer, wheels=())
    else:  # PyTorch's channel: setup.py install, an egg-info directory
        S.torch(t, site, version, cuda=cuda, metadata_dir=False, wheels=())
        t.file(f"{site}/torch-{version}-py3.11.egg-info/PKG-INFO", S.metadata("torch", version))
    if cuda:
        lib = f"{site}/torch/lib"
        S.ELF.install(t, f"{lib}/libc10_cuda.so", needed=["libcudart.so.12"], rpath=CONDA_RPATH)
        S.ELF.install(t, f"{lib}/libtorch_cuda.so", needed=["libc10_cuda.so", "libcudart.so.12", "libcublas.so.12"],
                      rpath=CONDA_RPATH)
        if cudart:
            S.ELF.install(t, f"{CONDA}/lib/libcudart.so.12.1.105", soname="libcudart.so.12")
            t.link(f"{CONDA}/lib/libcudart.so.12", "libcudart.so.12.1.105")
        S.ELF.install(t, f"{CONDA}/lib/libcublas.so.12", needed=["libcublasLt.so.12"], runpath="$ORIGIN")
        S.ELF.install(t, f"{CONDA}/lib/libcublasLt.so.12")


def expect_conda_env(doc):
    envs = doc["framework"]["environments"]
    problems = []
    conda = [e for e in envs if e["origin"] == "conda_env"]
    if len(conda) != 1:
        return [f"{len(conda)} conda environments in the facts, expected 1 (PATH and CONDA_PREFIX are one env)"]
    e = conda[0]
    if e["label"] != f"the conda env ml ({CONDA})":
        problems.append(f"label {e['label']!r}")
    if e["conda_meta"] != CONDA + "/conda-meta":
        problems.append(f"conda_meta {e['conda_meta']!r}")
    names = {p["name"]: p for p in e["conda_packages"]} if isinstance(e["conda_packages"], list) else {}
    if names.get("pytorch", {}).get("build") != "py3.11_cuda12.1_cudnn8.9.2_0":
        problems.append(f"conda_packages {e['conda_packages']}")
    if "pytorch-cuda" not in names or names["pytorch-cuda"]["version"] != "12.1":
        problems.append("pytorch-cuda 12.1 is not among the conda packages")
    torch = [b for b in e["builds"] if b["framework"] == "torch"]
    if not torch:
        return problems + ["no torch build"]
    b = torch[0]
    for key, want in (("installer", "conda"), ("kind", "cuda"), ("cuda_version", "12.1"), ("cudnn_version", "8.9.2"),
                      ("cuda_runtimes", [f"libcudart.so.12 -> {CONDA}/lib/libcudart.so.12.1.105"])):
        if b[key] != want:
            problems.append(f"torch {key} = {b[key]!r}, expected {want!r}")
    if "conda: pytorch-cuda 12.1 (ha16c6d3_5)" not in b["companions"]:
        problems.append(f"companions {b['companions']}")
    return problems


@scenario(facts=expect_conda_env)
def conda_pytorch_channel_cuda_build(t):
    desktop(t)
    conda_torch(t, PYTORCH_CHANNEL_CUDA, cuda="12.1")


@scenario(ids={"torch.cpu_only_build"},
          contains=("torch 2.1.0 in the conda env ml (" + CONDA + ") is a CPU-only build",
                    f"{CONDA}/conda-meta: pytorch 2.1.0 py3.11_cpu_0",
                    f"This torch was installed by conda: replace it with conda, `conda install -p {CONDA} -c "
                    "conda-forge pytorch-gpu`",
                    f"`conda remove -p {CONDA} --force pytorch`, and then: Install the CUDA build"))
def conda_pytorch_channel_cpu_build(t):
    desktop(t)
    conda_torch(t, [("pytorch", "2.1.0", "py3.11_cpu_0"), ("pytorch-mutex", "1.0", "cpu")], cuda=None)


@scenario(ids={"torch.cuda_too_new_for_driver"},
          contains=("torch 2.1.0 needs a driver supporting CUDA 12.1; yours (470.256.02) supports 11.4",
                    f"{CONDA}/conda-meta: pytorch 2.1.0 py3.11_cuda12.1_cudnn8.9.2_0"),
          severity={"torch.cuda_too_new_for_driver": "error"})
def conda_pytorch_cuda_12_on_driver_11_4(t):
    desktop(t, cuda=11040, driver="470.256.02")
    conda_torch(t, PYTORCH_CHANNEL_CUDA, cuda="12.1")


@scenario(ids={"toolchain.lib_unresolved"},
          contains=("torch 2.5.1 links libcudart.so.12, which the dynamic loader cannot resolve",
                    f"libcudart.so.12 (needed by {CONDA_SITE}/torch/lib/libtorch_cuda.so): not found"))
def conda_forge_pytorch_without_cuda_runtime(t):
    # conda-forge's build string names the CUDA it was built for; the cuda-cudart package is missing.
    desktop(t, cuda=12080, driver="570.124.06")
    conda_torch(t, [("pytorch", "2.5.1", "cuda126_mkl_py311_h0c5f2bc_300"), ("cuda-version", "12.6", "h7480c83_3")],
                cuda="12.6", version="2.5.1", installer="conda", cudart=False)


def framework_findings(report):
    return [f for f in report["findings"] if f["layer"] == "framework"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cc", default="cc", help="C compiler for the scenarios' tiny shared libraries")
    ap.add_argument("--only")
    args = ap.parse_args()
    S.ELF = elf_libs.ElfLibs(args.cc, os.path.join(args.work, ".elf-cache"))
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
            for c in sc["lacks"]:
                if c in text:
                    problems.append(f"a finding says {c!r}")
            for fid, sev in (sc["severity"] or {}).items():
                got = [f["severity"] for f in found if f["id"] == fid]
                if got and got[0] != sev:
                    problems.append(f"{fid} has severity {got[0]}, expected {sev}")
            if sc["facts"]:
                fr = subprocess.run([args.gpudoctor, "facts", "--json", "--root", root], capture_output=True, text=True)
                if fr.returncode != 0:
                    problems.append(f"facts exit {fr.returncode}: {fr.stderr.strip()}")
                else:
                    problems += sc["facts"](json.loads(fr.stdout))
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
