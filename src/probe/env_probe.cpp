// The process environment, as the kernel recorded it at exec (/proc/self/environ, NUL-separated),
// limited to the variables that decide GPU visibility and library lookup. The allowlist is also
// what `gpudoctor capture` keeps: nothing else of a user's environment leaves the machine.
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <array>

namespace gpudoctor::probe {
namespace {

constexpr std::array<std::string_view, 22> k_env_names = {
    "LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "HOME", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV",
    "PYTHONPATH", "PYTHONHOME", "GPU_DEVICE_ORDINAL", "KUBERNETES_SERVICE_HOST", "container",
    "WSL_DISTRO_NAME", "ACCELERATE_USE_CPU", "OLLAMA_LLM_LIBRARY", "ONEAPI_DEVICE_SELECTOR",
    "COMPUTE_PROFILE", "OPENCL_PROFILE", "SLURM_JOB_GPUS", "SLURM_STEP_GPUS", "OMP_NUM_THREADS",
    "NSIGHT_CUDA_DEBUGGER"};

// Whole families: NVIDIA_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, JAX_PLATFORMS ...
constexpr std::array<std::string_view, 17> k_env_prefixes = {
    "CUDA_", "NVIDIA_", "NCCL_", "HIP_", "ROCR_", "HSA_", "ROCM_", "TPU_", "NEURON_", "ASCEND_",
    "JAX_", "XLA_", "TF_", "PYTORCH_", "TORCH_", "ZE_", "HABANA_"};

}  // namespace

bool env_var_allowed(std::string_view name) {
  for (auto n : k_env_names) {
    if (name == n) return true;
  }
  for (auto p : k_env_prefixes) {
    if (name.starts_with(p)) return true;
  }
  return false;
}

facts::Known<std::map<std::string, std::string>> probe_env(const sys::FileSystem& fs) {
  auto text = fs.read_text("/proc/self/environ", 4 << 20);
  if (!text) return facts::Known<std::map<std::string, std::string>>::unknown(text.error().message);
  std::map<std::string, std::string> vars;
  for (auto entry : util::split(*text, '\0')) {
    auto eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    auto name = entry.substr(0, eq);
    if (!env_var_allowed(name)) continue;
    vars[util::sanitize_utf8(name)] = util::sanitize_utf8(entry.substr(eq + 1));
  }
  return vars;
}

}  // namespace gpudoctor::probe
