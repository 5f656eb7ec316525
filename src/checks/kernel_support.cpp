// Rules: CUDA C++ Programming Guide, "Binary Compatibility" ("a cubin object generated for compute
// capability X.y will only execute on devices of compute capability X.z where z >= y") and "PTX
// Compatibility" (PTX for compute capability c runs on devices of capability >= c); the same test in
// LLVM openmp/libomptarget plugins-nextgen/cuda (reviews.llvm.org/D138600). Arch-specific targets
// (sm_90a, compute_100a) have no forward compatibility at all, family-specific ones (sm_100f, CUDA
// 12.9+) stay within their major ("NVIDIA Blackwell and NVIDIA CUDA 12.9 Introduce Family-Specific
// Architecture Features", NVIDIA technical blog). A matching cubin is preferred to PTX.
#include <checks/kernel_support.hpp>

#include <util/text.hpp>

#include <fmt/format.h>

#include <vector>

namespace gpudoctor::checks {
namespace {

using facts::ArchVariant;
using facts::FatbinEntry;
using facts::FatbinEntryKind;

// Compute capability as one number: 8.9 -> 89, 12.0 -> 120 (the encoding of the fatbin arch field).
int encode(int major, int minor) { return major * 10 + minor; }

bool cubin_runs(const FatbinEntry& e, int cc) {
  int major = e.arch / 10;
  switch (e.variant) {
    case ArchVariant::arch_specific: return e.arch == cc;
    case ArchVariant::plain:
    case ArchVariant::family_specific: return cc / 10 == major && cc >= e.arch;
  }
  return false;
}

bool ptx_jits(const FatbinEntry& e, int cc) {
  switch (e.variant) {
    case ArchVariant::arch_specific: return e.arch == cc;
    case ArchVariant::family_specific: return cc / 10 == e.arch / 10 && cc >= e.arch;
    case ArchVariant::plain: return cc >= e.arch;
  }
  return false;
}

std::string cc_text(int cc) { return fmt::format("{}.{}", cc / 10, cc % 10); }

}  // namespace

const char* to_string(KernelSupportKind kind) {
  switch (kind) {
    case KernelSupportKind::native: return "native";
    case KernelSupportKind::ptx_jit: return "ptx_jit";
    case KernelSupportKind::no_kernel_image: return "no_kernel_image";
  }
  return "no_kernel_image";
}

KernelSupport predict_support(const facts::FatbinSummary& summary, int cc_major, int cc_minor) {
  const int cc = encode(cc_major, cc_minor);
  // The driver takes the best cubin: the highest arch that still runs (cuobjdump/driver behaviour:
  // newest compatible SASS first).
  const FatbinEntry* best_cubin = nullptr;
  const FatbinEntry* best_ptx = nullptr;
  for (const auto& e : summary.entries) {
    if (e.kind == FatbinEntryKind::cubin && cubin_runs(e, cc) && (!best_cubin || e.arch > best_cubin->arch)) best_cubin = &e;
    if (e.kind == FatbinEntryKind::ptx && ptx_jits(e, cc) && (!best_ptx || e.arch > best_ptx->arch)) best_ptx = &e;
  }
  KernelSupport out;
  if (best_cubin) {
    out.kind = KernelSupportKind::native;
    out.arch = best_cubin->arch;
    out.reason = best_cubin->arch == cc
                     ? fmt::format("{} cubin matches compute capability {}", facts::entry_name(*best_cubin), cc_text(cc))
                     : fmt::format("{} cubin runs on {} (same major, equal or higher minor)", facts::entry_name(*best_cubin), cc_text(cc));
    return out;
  }
  if (best_ptx) {
    out.kind = KernelSupportKind::ptx_jit;
    out.arch = best_ptx->arch;
    out.reason = fmt::format("no cubin runs on {}; the driver must JIT-compile {} PTX (ISA {}.{}), which needs a driver that "
                             "knows that PTX version and is slow on first use",
                             cc_text(cc), facts::entry_name(*best_ptx), best_ptx->version_major, best_ptx->version_minor);
    return out;
  }
  out.kind = KernelSupportKind::no_kernel_image;
  auto cubins = summary.cubin_names();
  auto ptx = summary.ptx_names();
  if (cubins.empty() && ptx.empty()) {
    out.reason = "the file holds no CUDA kernels";
  } else {
    out.reason = fmt::format("no kernel image for compute capability {}: cubins [{}], PTX [{}]", cc_text(cc), fmt::join(cubins, ", "),
                             fmt::join(ptx, ", "));
  }
  return out;
}

facts::FatbinSummary arch_list_summary(std::string_view archs) {
  facts::FatbinSummary s;
  for (auto a : util::split(archs, ';')) {
    bool ptx = a.ends_with("+PTX");
    auto mm = util::parse_version(ptx ? a.substr(0, a.size() - 4) : a).value_or(std::vector<int>{});
    if (mm.size() < 2) continue;
    FatbinEntry e;
    e.kind = FatbinEntryKind::cubin;
    e.arch = mm[0] * 10 + mm[1];
    s.entries.push_back(e);
    if (ptx) {
      e.kind = FatbinEntryKind::ptx;
      s.entries.push_back(e);
    }
  }
  return s;
}

}  // namespace gpudoctor::checks
