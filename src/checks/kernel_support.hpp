// Whether a GPU of a given compute capability can run the kernels of a fatbinary, by the CUDA
// compatibility rules (CUDA C++ Programming Guide, "Binary Compatibility" and "PTX Compatibility"):
//   - a cubin for sm_XY runs natively on a GPU of compute capability X.Z with Z >= Y (same major);
//   - PTX for compute_XY is JIT-compiled by the driver for any GPU with compute capability >= X.Y,
//     later majors included;
//   - the driver prefers a matching cubin to PTX.
// The "a" (sm_90a, sm_100a: exact capability only) and "f" (sm_100f: family) variants are not
// visible in the fatbin headers (both say 90 / 100), so an sm_90 entry is taken as plain sm_90; a
// library built only for sm_90a would be predicted to run on 9.x, which is right for 9.0 (the only 9.x).
// A pure function: used by `gpudoctor kernels --cc` and the torch.arch_unsupported check.
#pragma once

#include <string>
#include <string_view>

#include <facts/fatbin_facts.hpp>

namespace gpudoctor::checks {

enum class KernelSupportKind { native, ptx_jit, no_kernel_image };

struct KernelSupport {
  KernelSupportKind kind = KernelSupportKind::no_kernel_image;
  int arch = 0;  // the cubin (native) or PTX (ptx_jit) arch that would be used; 0 for none
  std::string reason;  // one sentence for people: "sm_86 cubin runs on 8.9 (same major, lower minor)"
};

const char* to_string(KernelSupportKind kind);

// `cc_major`.`cc_minor` is the GPU's compute capability (8.9 -> 8, 9). A summary without entries gives
// no_kernel_image.
KernelSupport predict_support(const facts::FatbinSummary& summary, int cc_major, int cc_minor);

// The kernels a published architecture list stands for (TORCH_CUDA_ARCH_LIST "8.0;9.0+PTX", as in
// data/torch_arch_lists.tsv): a cubin per entry, and PTX too for a "+PTX" one. Unreadable entries are
// skipped.
facts::FatbinSummary arch_list_summary(std::string_view archs);

}  // namespace gpudoctor::checks
