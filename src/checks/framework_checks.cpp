// The framework layer's catalogue: one row per finding id, with the function that reports it.
#include <checks/framework_check_fns.hpp>

namespace gpudoctor::checks {
namespace {

using namespace framework;  // NOLINT(google-build-using-namespace): the table names every function

constexpr Layer k_fw = Layer::framework;

const Check k_checks[] = {
    {{"python.sys_path_unknown", k_fw, Severity::warning, "A Python interpreter's sys.path could not be learned",
      "The interpreter's files do not say where its standard library and site-packages are (no version in its "
      "name, pyvenv.cfg or lib/), or with --deep the interpreter failed or timed out",
      "Run the interpreter by hand (`python -c 'import sys; print(sys.path)'`) to see why it fails."},
     python_sys_path_unknown},
    {{"torch.shadowed", k_fw, Severity::error, "A local torch.py or torch/ shadows the installed torch",
      "torch.py or torch/__init__.py in the working directory, or a non-torch module named torch before the real "
      "package on sys.path",
      "Rename the local module so that it is not called torch."},
     torch_shadowed},
    {{"torch.cpu_only_build", k_fw, Severity::error, "The torch that imports is a CPU-only build",
      "torch/version.py says cuda = None and hip = None (info when the machine has no GPU)",
      "Install the CUDA (or ROCm) build from the index URL on https://pytorch.org/get-started/locally/."},
     torch_cpu_only_build},
    {{"torch.rocm_build_on_nvidia", k_fw, Severity::error, "A ROCm build of torch on an NVIDIA machine",
      "torch/version.py sets hip, and the only GPUs are NVIDIA's", "Install the CUDA build of torch."},
     torch_rocm_build_on_nvidia},
    {{"torch.cuda_build_on_amd", k_fw, Severity::error, "A CUDA build of torch on an AMD machine",
      "torch/version.py sets cuda, and the only GPUs are AMD's; explain: a post that names only an AMD GPU (Radeon, "
      "RX 6700, Instinct) and says the GPU was not found or used",
      "Install the ROCm build of torch."},
     torch_cuda_build_on_amd},
    {{"torch.cuda_too_new_for_driver", k_fw, Severity::error, "torch was built for a CUDA newer than the driver supports",
      "torch.version.cuda is above the driver's CUDA version (cuDriverGetVersion / NVML); from CUDA 11 on, a warning within one "
      "major version (minor version compatibility)",
      "Install the torch build for the driver's CUDA version, or upgrade the driver."},
     torch_cuda_too_new_for_driver},
    {{"torch.arch_unsupported", k_fw, Severity::error, "torch has no kernels for this GPU's compute capability",
      "neither a cubin of the GPU's major architecture at or below its minor nor PTX at or below its capability in "
      "the fatbinary of lib/libtorch_cuda*.so (headers read without importing; PyTorch's published arch list for "
      "the wheel when the library cannot be read; with neither, a GPU below compute capability 3.0 and a build with "
      "CUDA 9 or later, which cannot compile for it); a warning when only PTX JIT compilation would serve the GPU",
      "Install a torch build whose CUDA version supports this GPU (newer GPUs need newer cuXXX builds)."},
     torch_arch_unsupported},
    {{"torch.multiple_installs", k_fw, Severity::warning, "More than one torch on one interpreter's sys.path",
      "torch/ packages in two or more sys.path entries (user site, system, PYTHONPATH)",
      "Uninstall until one copy is left."},
     torch_multiple_installs},
    {{"tf.cpu_only_build", k_fw, Severity::error, "The TensorFlow that imports is a CPU-only build",
      "tensorflow-cpu is installed or build_info.py says is_cuda_build = False (info without a GPU)",
      "Install `tensorflow[and-cuda]`."},
     tf_cpu_only_build},
    {{"tf.windows_native_no_gpu", k_fw, Severity::error, "TensorFlow 2.11 or later on native Windows, which it runs on the CPU only",
      "a described machine (explain) that runs Windows, not WSL, with TensorFlow 2.11 or later",
      "Run TensorFlow in WSL2 (`pip install 'tensorflow[and-cuda]'` there), or stay on native Windows with "
      "`pip install \"tensorflow<2.11\"` and CUDA 11.2 / cuDNN 8.1, or use the DirectML plugin."},
     tf_windows_native_no_gpu},
    {{"tf.missing_gpu_libs", k_fw, Severity::error, "TensorFlow cannot load the CUDA libraries it was built for",
      "a CUDA build whose libcudart/libcublas/libcudnn sonames (from build_info.py) the loader model cannot resolve; "
      "or (explain) one built for a CUDA whose sonames differ from the only toolkit the text shows "
      "(data/tf_gpu_builds.tsv)",
      "Install `tensorflow[and-cuda]` of the same version, or the CUDA and cuDNN versions in build_info.py."},
     tf_missing_gpu_libs},
    {{"jax.cpu_only", k_fw, Severity::error, "JAX has no GPU plugin",
      "jaxlib without jax-cuda*-plugin / jax_plugins/xla_cuda*/xla_cuda_plugin.so (info without a GPU)",
      "Install `jax[cuda12]` (or `jax[cuda13]`)."},
     jax_cpu_only},
    {{"ort.cpu_package_shadows_gpu", k_fw, Severity::error, "onnxruntime and onnxruntime-gpu are both installed",
      "both distributions in one environment: they write the same onnxruntime/ directory",
      "Uninstall both and install onnxruntime-gpu alone."},
     ort_cpu_package_shadows_gpu},
    {{"ort.cuda_provider_libs_missing", k_fw, Severity::error,
      "ONNX Runtime's CUDA provider cannot load its CUDA libraries",
      "a DT_NEEDED entry of capi/libonnxruntime_providers_cuda.so that the loader model cannot resolve",
      "Install the CUDA and cuDNN versions this onnxruntime-gpu was built for."},
     ort_cuda_provider_libs_missing},
    {{"paddle.cpu_only_build", k_fw, Severity::error, "The PaddlePaddle that imports is a CPU-only build",
      "paddle/version/__init__.py says cuda_version = 'False' (info without a GPU)", "Install paddlepaddle-gpu."},
     paddle_cpu_only_build},
    {{"toolchain.lib_unresolved", k_fw, Severity::error, "A framework's GPU library needs a library nothing provides",
      "a DT_NEEDED entry of libtorch_cuda.so, xla_cuda_plugin.so, ... that no step of ld.so's search finds",
      "Install the package that provides the soname, or fix LD_LIBRARY_PATH."},
     toolchain_lib_unresolved},
    {{"toolchain.multiple_cuda_runtimes", k_fw, Severity::warning,
      "Frameworks in one environment resolve the CUDA runtime to different files",
      "libcudart.so.* resolves to two or more files across the frameworks of one interpreter",
      "Use one source of CUDA libraries per environment (the nvidia-* wheels, or one toolkit on LD_LIBRARY_PATH)."},
     toolchain_multiple_cuda_runtimes},
    {{"deep.disagrees_with_static", k_fw, Severity::warning, "Importing a framework contradicts its files",
      "--deep: the import failed, or reported another version, CUDA version or GPU availability than predicted",
      "Read the evidence: the imported copy or the runtime differs from what is installed on disk."},
     deep_disagrees_with_static},
};

}  // namespace

std::span<const Check> framework_checks() { return k_checks; }

}  // namespace gpudoctor::checks
