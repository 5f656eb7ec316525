// torch.arch_unsupported: can this GPU run the kernels of the torch that imports? The kernels are
// known best from the installed build itself, the fatbinary headers of lib/libtorch_cuda*.so
// (FrameworkBuild::kernel_images); only when those could not be read does the check fall back to the
// architecture list PyTorch publishes for the wheel (data/torch_arch_lists.tsv), and it says which
// source it used. The compatibility rules are checks/kernel_support's predict_support. A GPU served
// only by PTX JIT compilation is a warning: it runs, after a long first compilation, and torch's own
// _check_cubins (torch/cuda/__init__.py) warns that the GPU "is not compatible with the current
// PyTorch installation".
#include <checks/framework_check_fns.hpp>

#include <checks/framework_view.hpp>
#include <checks/kernel_support.hpp>
#include <data/tsv.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <optional>
#include <set>

namespace gpudoctor::checks::framework {
namespace {

using facts::BuildKind;
using facts::FatbinSummary;
using facts::Framework;

// "2.0-2.7" / "2.6-": does the release (2.5.1) fall in the series range?
bool in_release_series(std::string_view range, const std::vector<int>& version) {
  if (version.size() < 2) return false;
  std::vector<int> series = {version[0], version[1]};
  auto dash = range.find('-');
  auto lo = util::parse_version(range.substr(0, dash)).value_or(std::vector<int>{});
  if (util::compare_versions(series, lo) < 0) return false;
  auto hi = dash == std::string_view::npos ? range : range.substr(dash + 1);
  return hi.empty() || util::compare_versions(series, util::parse_version(hi).value_or(std::vector<int>{})) <= 0;
}

// What the build's kernels are, and where that was learned.
struct Kernels {
  std::vector<FatbinSummary> images;    // one per library with GPU code
  std::vector<std::string> provenance;  // evidence lines naming the file (or the table row) and the archs
  std::string names;                    // "sm_50…sm_90", "sm_75, sm_80 and PTX compute_90"
};

std::string kernel_names(const FatbinSummary& s) {
  auto cubins = s.cubin_names();
  auto ptx = s.ptx_names();
  std::string out = cubins.size() > 3 ? cubins.front() + "…" + cubins.back() : util::join(cubins, ", ");
  if (!ptx.empty()) out += (out.empty() ? "PTX " : " and PTX ") + util::join(ptx, ", ");
  return out.empty() ? "no GPU architecture" : out;
}

std::string listing(const std::vector<std::string>& names) {
  return names.empty() ? "none" : util::join(names, " ");
}

std::optional<Kernels> from_fatbins(const facts::FrameworkBuild& b) {
  if (!b.kernel_images) return std::nullopt;
  Kernels k;
  for (const auto& s : *b.kernel_images) {
    if (s.entries.empty()) continue;  // a library without device code (libc10_cuda.so) launches nothing
    k.provenance.push_back(fmt::format("from the fatbin of {}: cubins {}; PTX {} ({} fatbin containers)", s.path,
                                       listing(s.cubin_names()), listing(s.ptx_names()), s.containers));
    k.images.push_back(s);
  }
  if (k.images.empty()) return std::nullopt;
  k.names = kernel_names(k.images.front());
  return k;
}

// The published arch list of the wheel: TORCH_CUDA_ARCH_LIST "8.0;9.0+PTX" as cubins and PTX entries.
std::optional<Kernels> from_table(const facts::FrameworkBuild& b) {
  const auto& t = data::table("torch_arch_lists.tsv");
  std::string variant = "cu";
  for (char c : b.cuda_version) {
    if (c != '.') variant.push_back(c);
  }
  auto version = util::parse_version(public_version(b.version)).value_or(std::vector<int>{});
  std::optional<std::size_t> row;
  for (std::size_t r = 0; r < t.size() && !row; ++r) {
    if (t.at(r, "variant") == variant && in_release_series(t.at(r, "torch"), version)) row = r;
  }
  if (!row) return std::nullopt;
  FatbinSummary s = arch_list_summary(t.at(*row, "archs"));
  Kernels k;
  k.names = kernel_names(s);
  k.provenance.push_back(fmt::format(
      "from the published arch list for {}+{}: the {} wheels of torch {} are built for "
      "TORCH_CUDA_ARCH_LIST {} ({})",
      public_version(b.version), variant, variant, t.at(*row, "torch"), t.at(*row, "archs"), t.at(*row, "source")));
  k.provenance.push_back("the installed libraries' fatbins were not read: " +
                         (b.kernel_images ? std::string("they hold no GPU code") : b.kernel_images.why()));
  k.images.push_back(std::move(s));
  return k;
}

int rank(KernelSupportKind k) {
  switch (k) {
    case KernelSupportKind::native:
      return 0;
    case KernelSupportKind::ptx_jit:
      return 1;
    case KernelSupportKind::no_kernel_image:
      return 2;
  }
  return 2;
}

}  // namespace

void torch_arch_unsupported(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  auto gpus = v.gpus_with_capability();
  if (gpus.empty()) return;
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    if (!b || b->kind != BuildKind::cuda) continue;
    auto kernels = from_fatbins(*b);
    if (!kernels) kernels = from_table(*b);
    if (!kernels) {
      // No arch list for this build, but its CUDA decides for the oldest GPUs: CUDA 9.0 removed Fermi
      // (sm_2x), and sm_1x went before, so no code a CUDA 9+ compiler made runs on them.
      auto cuda = util::parse_version(b->cuda_version);
      if (!cuda || cuda->empty() || (*cuda)[0] < 9) continue;
      std::set<std::pair<int, int>> seen;
      for (const auto& gpu : gpus) {
        if (gpu.cc_major >= 3 || !seen.insert({gpu.cc_major, gpu.cc_minor}).second) continue;
        auto sm = fmt::format("sm_{}{}", gpu.cc_major, gpu.cc_minor);
        std::vector<std::string> ev = {fmt::format("{}: import torch loads {}", environment_name(env), b->package_dir)};
        ev.insert(ev.end(), b->evidence.begin(), b->evidence.end());
        ev.push_back(fmt::format("{} has compute capability {}.{} ({}, from {})", gpu.label, gpu.cc_major, gpu.cc_minor,
                                 sm, gpu.source));
        ev.push_back(fmt::format("torch {} is built with CUDA {}, and CUDA 9.0 and later cannot compile for compute "
                                 "capability below 3.0 (https://docs.nvidia.com/cuda/archive/9.0/cuda-toolkit-release-notes/: "
                                 "Fermi removed)",
                                 b->version, b->cuda_version));
        out.emit(fmt::format("torch {} (CUDA {}) has no kernels for {}, and no build with CUDA 9 or later can have any: "
                             "this GPU is too old for every current PyTorch, which reports CUDA unavailable or fails with "
                             "\"no kernel image is available for execution on the device\".",
                             b->version, b->cuda_version, sm),
                 std::move(ev),
                 "Use a GPU of compute capability 3.5 or newer (5.0+ for current wheels), or run on the CPU; no "
                 "PyTorch wheel supports this one.");
      }
      continue;
    }
    std::set<std::pair<int, int>> seen;
    for (const auto& gpu : gpus) {
      if (!seen.insert({gpu.cc_major, gpu.cc_minor}).second) continue;
      // The worst library decides (no_kernel_image over ptx_jit over native): a library without a
      // usable kernel fails every op it implements.
      std::optional<KernelSupport> worst;
      for (const auto& image : kernels->images) {
        auto s = predict_support(image, gpu.cc_major, gpu.cc_minor);
        if (!image.path.empty()) s.reason = image.path + ": " + s.reason;
        if (!worst || rank(s.kind) > rank(worst->kind)) worst = s;
      }
      if (!worst || worst->kind == KernelSupportKind::native) continue;
      auto sm = fmt::format("sm_{}{}", gpu.cc_major, gpu.cc_minor);
      std::vector<std::string> ev = {fmt::format("{}: import torch loads {}", environment_name(env), b->package_dir)};
      ev.insert(ev.end(), b->evidence.begin(), b->evidence.end());
      ev.insert(ev.end(), kernels->provenance.begin(), kernels->provenance.end());
      ev.push_back(fmt::format("{} has compute capability {}.{} ({}, from {})", gpu.label, gpu.cc_major, gpu.cc_minor,
                               sm, gpu.source));
      ev.push_back(worst->reason);
      auto fix = "Install a torch build whose architecture list includes " + sm +
                 " (newer GPUs need newer cuXXX builds and a driver for them): " +
                 v.torch_install_command(env, *b, BuildKind::cuda);
      if (worst->kind == KernelSupportKind::no_kernel_image) {
        out.emit(fmt::format("torch {} has kernels for {}; this GPU is {}: every kernel launch will fail with \"no "
                             "kernel image is available for execution on the device\".",
                             b->version, kernels->names, sm),
                 std::move(ev), fix);
      } else {
        auto& finding = out.emit(
            fmt::format("torch {} has no kernels compiled for {} ({}); the driver must JIT-compile compute_{} PTX "
                        "for this GPU: the first use of every kernel is slow, and torch warns that the GPU \"is not "
                        "compatible with the current PyTorch installation\".",
                        b->version, sm, kernels->names, worst->arch),
            std::move(ev), fix);
        finding.severity = Severity::warning;
      }
    }
  }
}

}  // namespace gpudoctor::checks::framework
