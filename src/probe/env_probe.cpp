// The process environment, as the kernel recorded it at exec (/proc/self/environ, NUL-separated),
// limited to the variables that decide GPU visibility and library lookup. The allowlist is also
// what `gpudoctor capture` keeps: nothing else of a user's environment leaves the machine. A name
// on the list is still dropped when it or its value looks like a credential (util/secrets.hpp):
// NVIDIA_API_KEY passes "NVIDIA_" by name only.
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/secrets.hpp>
#include <util/text.hpp>

#include <array>

namespace gpudoctor::probe {
namespace {

constexpr std::array<std::string_view, 43> k_env_names = {
    "LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "HOME", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV",
    "PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "PYTHONUSERBASE", "GPU_DEVICE_ORDINAL", "KUBERNETES_SERVICE_HOST", "container",
    "WSL_DISTRO_NAME", "ACCELERATE_USE_CPU", "OLLAMA_LLM_LIBRARY", "ONEAPI_DEVICE_SELECTOR",
    "COMPUTE_PROFILE", "OPENCL_PROFILE", "SLURM_JOB_GPUS", "SLURM_STEP_GPUS", "OMP_NUM_THREADS",
    "NSIGHT_CUDA_DEBUGGER",
    // The NVIDIA container toolkit's variables (nvidia-container-toolkit docs, "Environment variables
    // (OCI spec)"), and those NVIDIA's framework containers set.
    "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_DISABLE_REQUIRE", "NVIDIA_MIG_CONFIG_DEVICES",
    "NVIDIA_MIG_MONITOR_DEVICES", "NVIDIA_TF32_OVERRIDE", "NVIDIA_PRODUCT_NAME", "NVIDIA_BUILD_ID",
    "NVIDIA_PYTORCH_VERSION", "NVIDIA_TENSORFLOW_VERSION", "NVIDIA_CUDA_VERSION",
    // TensorFlow's own (tensorflow/core/util/env_var.cc callers, tf docs); "TF_" as a whole also
    // holds Terraform's TF_VAR_* and TF_TOKEN_*.
    "TF_CPP_MIN_LOG_LEVEL", "TF_CPP_MAX_VLOG_LEVEL", "TF_FORCE_GPU_ALLOW_GROWTH", "TF_GPU_ALLOCATOR",
    "TF_ENABLE_ONEDNN_OPTS", "TF_XLA_FLAGS", "TF_GPU_THREAD_MODE", "TF_GPU_THREAD_COUNT"};

// Whole families: CUDA_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, JAX_PLATFORMS, NVIDIA_REQUIRE_CUDA ...
constexpr std::array<std::string_view, 20> k_env_prefixes = {
    "CUDA_", "NVIDIA_REQUIRE_", "NCCL_", "HIP_", "ROCR_", "HSA_", "ROCM_", "TPU_", "NEURON_RT_", "ASCEND_",
    "JAX_", "XLA_", "TF_CUDNN_", "TF_FORCE_", "PYTORCH_", "TORCH_", "ZE_", "HABANA_VISIBLE_", "CUBLAS_", "CUDNN_"};

}  // namespace

bool env_var_allowed(std::string_view name) {
  if (util::name_looks_secret(name)) return false;
  for (auto n : k_env_names) {
    if (name == n) return true;
  }
  for (auto p : k_env_prefixes) {
    if (name.starts_with(p)) return true;
  }
  return false;
}

bool env_entry_kept(std::string_view name, std::string_view value) {
  return env_var_allowed(name) && !util::value_looks_secret(value);
}

facts::Known<std::map<std::string, std::string>> probe_env(const sys::FileSystem& fs) {
  auto text = fs.read_text("/proc/self/environ", 4 << 20);
  if (!text) return facts::Known<std::map<std::string, std::string>>::unknown(text.error().message);
  std::map<std::string, std::string> vars;
  for (auto entry : util::split(*text, '\0')) {
    auto eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    auto name = entry.substr(0, eq);
    if (!env_entry_kept(name, entry.substr(eq + 1))) continue;
    vars[util::sanitize_utf8(name)] = util::sanitize_utf8(entry.substr(eq + 1));
  }
  return vars;
}

}  // namespace gpudoctor::probe
