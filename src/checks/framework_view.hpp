// FrameworkView: the derived answers the framework-layer checks share: which GPU vendors this
// machine has, what CUDA version the driver supports, which copy of each framework an import
// would load, and the install commands that fix a wrong build (from data/torch_variants.tsv).
// Pure: computed from the facts only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <facts/facts.hpp>

namespace gpudoctor::checks {

class FrameworkView {
 public:
  explicit FrameworkView(const facts::Facts& f) : m_f(f) {}

  bool nvidia_gpu() const;
  bool amd_gpu() const;
  // The highest CUDA version the driver supports (cuDriverGetVersion / NVML: 12040), when asked.
  std::optional<int> driver_cuda_version() const;
  // "550.54.14" from NVML, else the loaded kernel module; "" when neither says.
  std::string driver_version() const;
  // The NVIDIA GPUs whose compute capability is known: from NVML, else the PCI id or pci.ids chip name
  // (DriverView), else the CUDA driver's devices; one per GPU.
  struct Gpu {
    int cc_major = 0;
    int cc_minor = 0;
    std::string label;   // "GPU 0 NVIDIA GeForce RTX 5090 (00000000:01:00.0)"
    std::string source;  // "NVML", "PCI id 10de:2b85", "cuDeviceGetAttribute"
  };
  std::vector<Gpu> gpus_with_capability() const;

  const std::vector<facts::PythonEnvironment>& environments() const;
  // The copy of `fw` that `import` loads in `env`: the first on sys.path; nullptr when none.
  static const facts::FrameworkBuild* imported(const facts::PythonEnvironment& env, facts::Framework fw);
  static std::vector<const facts::FrameworkBuild*> builds(const facts::PythonEnvironment& env, facts::Framework fw);

  // `{python} -m pip install ...` for the torch build this machine needs: a CUDA variant the
  // driver supports (kind cuda) or a ROCm variant (kind rocm), keeping `current`'s release when a
  // variant of it exists.
  std::string torch_install_command(const facts::PythonEnvironment& env, const facts::FrameworkBuild& current,
                                    facts::BuildKind kind) const;

 private:
  const facts::Facts& m_f;
};

// "12.1" -> 12010 (the encoding of cudaRuntimeGetVersion); nullopt when unparsable.
std::optional<int> cuda_version_number(std::string_view dotted);
// 12040 -> "12.4".
std::string cuda_version_text(int v);
// "2.5.1+cu121" -> "2.5.1".
std::string public_version(std::string_view version);
// `python -m pip` for the environment (the interpreter path, quoted when needed).
std::string pip_command(const facts::PythonEnvironment& env);
// How findings name an environment: its label ("conda env ml"), else its interpreter path.
std::string environment_name(const facts::PythonEnvironment& env);
// What a finding about a build rests on: the directory an import loads and, for a build read
// from a text (which has no directory), the lines it was read from.
std::vector<std::string> build_evidence(const facts::PythonEnvironment& env, const facts::FrameworkBuild& b);

}  // namespace gpudoctor::checks
