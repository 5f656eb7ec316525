// Pure answers from the driver-layer tables in data/ (cuda_driver_versions.tsv, cuda_errors.tsv,
// nvml_errors.tsv, gpu_architectures.tsv, gpu_chips.tsv, gpu_devices.tsv): which driver runs which
// CUDA runtime, what an error code means, what a GPU is from its PCI id alone, and what its compute
// capability accelerates. No I/O; other layers (a framework's CUDA build against the driver) call
// driver_supports too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor::checks {

// CUDA versions as the APIs encode them: 12040 -> "12.4" (cuDriverGetVersion, cudaRuntimeGetVersion).
std::string cuda_version_string(int encoded);

enum class DriverSupport {
  full,                  // driver >= the one shipped with that toolkit
  minor_compatibility,   // same CUDA major, driver >= its minor-version-compatibility floor: runs, but
                         // PTX from the newer toolkit cannot be JIT-compiled and new APIs fail
  unsupported,           // the runtime fails to start (cudaErrorInsufficientDriver, 35)
  unknown,               // a version did not parse, or the runtime is older than the table
};
const char* to_string(DriverSupport s);

// `cuda_runtime` "12.4" (or "12.4.1"); `driver` "550.54.14".
DriverSupport driver_support(std::string_view cuda_runtime, std::string_view driver);
// The same from the driver's own CUDA version (cuDriverGetVersion / nvmlSystemGetCudaDriverVersion:
// 12020), for when only that is known.
DriverSupport driver_support_by_cuda(std::string_view cuda_runtime, int driver_cuda);
// True when the runtime starts on that driver (full or minor-version compatibility).
bool driver_supports(std::string_view cuda_runtime, std::string_view driver);
// The newest CUDA (12040) whose GA driver this driver release is at least (data/cuda_driver_versions.tsv):
// what the driver reports as its CUDA version. nullopt for an unparsable version or one below every row.
std::optional<int> cuda_of_driver(std::string_view driver);
// The Linux driver a CUDA version ships with, and the minimum under minor-version compatibility
// ("" where the table has none).
struct DriverRequirement {
  std::string cuda;  // the table row used ("12.4")
  std::string driver;
  std::string mvc_driver;
};
std::optional<DriverRequirement> driver_requirement(std::string_view cuda_runtime);

enum class CudaApi { driver, runtime };
struct ErrorMeaning {
  int code = 0;
  std::string name;
  std::string meaning;
  std::string cause;  // "" when the table has nothing beyond the meaning
  std::string source;
};
std::optional<ErrorMeaning> cuda_error(CudaApi api, int code);
std::optional<ErrorMeaning> nvml_error(int code);
// "CUDA_ERROR_STUB_LIBRARY (34): the CUDA driver ... is a stub library; common cause: ..."
std::string describe_cuda_error(CudaApi api, int code);
std::string describe_nvml_error(int code, std::string_view library_text);

struct ComputeCapability {
  int major = 0;
  int minor = 0;
  bool operator==(const ComputeCapability&) const = default;
  auto operator<=>(const ComputeCapability&) const = default;
  std::string sm() const;  // "sm_89"
  std::string dotted() const;  // "8.9"
};

enum class OpenModule { unsupported, supported, required };

struct Architecture {
  ComputeCapability cc;
  std::string name;  // "Ada Lovelace"
  int last_driver_branch = 0;  // 470, 580; 0 when none is announced
  OpenModule open_module = OpenModule::supported;
  std::string cuda_first;
  std::string cuda_last;  // "" while current toolkits still build for it
  std::string source;
};
std::optional<Architecture> architecture(ComputeCapability cc);
// Whether a driver of this major version (550, 474) still drives GPUs of `arch`: true when no last
// branch is announced. Windows numbers a branch's drivers above it (R470: 471-474, R390: 391, R340:
// 342), so the branch is the major version rounded down to ten.
bool still_driven_by(const Architecture& arch, int driver_major);

// What a GPU is without asking a driver: by PCI device id (gpu_devices.tsv), else by the chip that
// starts its pci.ids name (gpu_chips.tsv: "AD102 [GeForce RTX 4090]" -> 8.9).
std::optional<ComputeCapability> cc_from_pci(std::uint32_t device_id, std::string_view pci_name);
// The compute capability of a GPU known only by its product name, as nvidia-smi, torch or a person
// writes it ("NVIDIA GeForce GTX 1080 Ti", "Tesla K40m", "RTX 3090"), from data/gpu_product_cc.tsv:
// the longest row that is a case-insensitive substring of the name, on word boundaries.
struct ProductCc {
  ComputeCapability cc;
  std::string match;  // the row's product name
};
std::optional<ProductCc> cc_from_product_name(std::string_view name);
// Whether this product needs the open kernel modules beyond what its architecture says (GH200).
bool product_requires_open_module(std::uint32_t device_id, std::string_view name);

// What the GPU's tensor cores accelerate, from its compute capability (CUDA Programming Guide,
// compute-capabilities appendix: FP16 tensor cores from 7.0, TF32 and BF16 from 8.0, FP8 from 8.9).
struct Precisions {
  bool fp16_tensor_cores = false;
  bool tf32 = false;
  bool bf16 = false;
  bool fp8 = false;
};
Precisions precisions(ComputeCapability cc);

}  // namespace gpudoctor::checks
