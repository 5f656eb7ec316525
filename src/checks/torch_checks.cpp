// PyTorch checks: what the installed build can drive (torch/version.py, its GPU libraries) against
// what this machine has (GPU vendor, the CUDA version the driver supports), and which copy an
// import loads. Sources: torch/version.py is written by tools/generate_torch_version.py;
// torch.cuda.is_available() is False on a build without CUDA (torch/cuda/__init__.py
// _is_compiled); CUDA minor version compatibility lets a 12.x runtime start on any 12.x driver but
// not run PTX newer than the driver (CUDA Compatibility guide, "Minor Version Compatibility").
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
using facts::Framework;

std::string where(const facts::PythonEnvironment& env) { return env.label.empty() ? env.interpreter : env.label; }

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

std::vector<std::string> build_evidence(const facts::PythonEnvironment& env, const facts::FrameworkBuild& b) {
  std::vector<std::string> ev = {fmt::format("{}: import {} loads {}", where(env), to_string(b.framework), b.package_dir)};
  ev.insert(ev.end(), b.evidence.begin(), b.evidence.end());
  return ev;
}

}  // namespace

void torch_cpu_only_build(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    if (!b || b->kind != BuildKind::cpu) continue;
    auto ev = build_evidence(env, *b);
    ev.push_back(fmt::format("no {}/lib/libtorch_cuda.so", b->package_dir));
    bool nvidia = v.nvidia_gpu();
    bool amd = v.amd_gpu();
    std::string fix;
    if (nvidia) fix = v.torch_install_command(env, *b, BuildKind::cuda);
    else if (amd) fix = v.torch_install_command(env, *b, BuildKind::rocm);
    else fix = "Nothing to change on this machine (it has no GPU); on a GPU machine install a CUDA or ROCm build.";
    auto& finding = out.emit(fmt::format("torch {} in {} is a CPU-only build: torch.cuda.is_available() is always "
                                         "False.",
                                         b->version, where(env)),
                             std::move(ev), fix);
    if (!nvidia && !amd) finding.severity = Severity::info;
  }
}

void torch_cuda_too_new_for_driver(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  auto driver = v.driver_cuda_version();
  if (!driver) return;
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    if (!b || b->kind != BuildKind::cuda) continue;
    auto built = cuda_version_number(b->cuda_version);
    if (!built || *built <= *driver) continue;
    auto ev = build_evidence(env, *b);
    auto driver_name = v.driver_version();
    ev.push_back(fmt::format("the driver {}supports CUDA {} (cuDriverGetVersion = {})",
                             driver_name.empty() ? "" : driver_name + " ", cuda_version_text(*driver), *driver));
    bool same_major = *built / 1000 == *driver / 1000;
    std::string message =
        fmt::format("torch {} needs a driver supporting CUDA {}; yours ({}) supports {}.", b->version, b->cuda_version,
                    driver_name.empty() ? "driver version unknown" : driver_name, cuda_version_text(*driver));
    if (same_major) {
      message += " CUDA's minor version compatibility lets it start, but PTX newer than the driver cannot be "
                 "JIT-compiled and newer runtime features fail with cudaErrorCallRequiresNewerDriver.";
    } else {
      message += " CUDA fails to initialise: torch.cuda.is_available() is False (\"The NVIDIA driver on your system is "
                 "too old\").";
    }
    auto fix = v.torch_install_command(env, *b, BuildKind::cuda) +
               " Or upgrade the NVIDIA driver to one that supports CUDA " + b->cuda_version + ".";
    auto& finding = out.emit(std::move(message), std::move(ev), fix);
    if (same_major) finding.severity = Severity::warning;
  }
}

void torch_rocm_build_on_nvidia(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  if (!v.nvidia_gpu() || v.amd_gpu()) return;
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    if (!b || b->kind != BuildKind::rocm) continue;
    out.emit(fmt::format("torch {} in {} is a ROCm (AMD) build, and this machine's GPU is NVIDIA.", b->version,
                         where(env)),
             build_evidence(env, *b), v.torch_install_command(env, *b, BuildKind::cuda));
  }
}

void torch_cuda_build_on_amd(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  if (!v.amd_gpu() || v.nvidia_gpu()) return;
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    if (!b || b->kind != BuildKind::cuda) continue;
    out.emit(fmt::format("torch {} in {} is a CUDA (NVIDIA) build, and this machine's GPU is AMD.", b->version,
                         where(env)),
             build_evidence(env, *b), v.torch_install_command(env, *b, BuildKind::rocm));
  }
}

void torch_shadowed(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    for (const auto& s : env.shadows) {
      if (s.module != "torch") continue;
      std::vector<std::string> ev = {fmt::format("{}: {} ({})", where(env), s.path, s.where)};
      if (b) ev.push_back(fmt::format("the installed torch {} is {}", b->version, b->package_dir));
      std::string message =
          s.where == "current directory"
              ? fmt::format("{} in the current directory shadows the installed torch: `import torch` from here "
                            "(python -c, -m, a notebook, a script in this directory) loads it instead.",
                            s.path)
              : fmt::format("{} comes before the installed torch on sys.path ({}): `import torch` loads it instead.",
                            s.path, s.where);
      out.emit(std::move(message), std::move(ev),
               fmt::format("Rename {} (and delete any __pycache__ beside it) so that it is not called torch.", s.path));
    }
  }
}

void torch_multiple_installs(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    auto all = FrameworkView::builds(env, Framework::torch);
    if (all.size() < 2) continue;
    std::vector<std::string> ev;
    for (const auto* b : all) {
      ev.push_back(fmt::format("sys.path[{}]: torch {} ({}) at {}", b->sys_path_index, b->version, to_string(b->kind),
                               b->package_dir));
    }
    out.emit(fmt::format("{} copies of torch are installed for {}; import loads the first, torch {} in {}, and pip "
                         "may be upgrading another.",
                         all.size(), where(env), all.front()->version, all.front()->package_dir),
             std::move(ev),
             fmt::format("Keep one: `{} uninstall torch` until `{} show torch` finds none, then install the build you "
                         "want once (user-site copies live under ~/.local).",
                         pip_command(env), pip_command(env)));
  }
}

void torch_arch_unsupported(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  auto ccs = v.compute_capabilities();
  if (ccs.empty()) return;
  const auto& t = data::table("torch_arch_lists.tsv");
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    if (!b || b->kind != BuildKind::cuda) continue;
    std::string variant = "cu";
    for (char c : b->cuda_version) {
      if (c != '.') variant.push_back(c);
    }
    auto version = util::parse_version(public_version(b->version)).value_or(std::vector<int>{});
    std::optional<std::size_t> row;
    for (std::size_t r = 0; r < t.size() && !row; ++r) {
      if (t.at(r, "variant") == variant && in_release_series(t.at(r, "torch"), version)) row = r;
    }
    if (!row) continue;
    facts::FatbinSummary kernels;
    std::vector<std::string> names;
    for (auto a : util::split(t.at(*row, "archs"), ';')) {
      bool ptx = a.ends_with("+PTX");
      auto mm = util::parse_version(ptx ? a.substr(0, a.size() - 4) : a).value_or(std::vector<int>{});
      if (mm.size() < 2) continue;
      int arch = mm[0] * 10 + mm[1];
      facts::FatbinEntry cubin;
      cubin.kind = facts::FatbinEntryKind::cubin;
      cubin.arch = arch;
      kernels.entries.push_back(cubin);
      names.push_back(fmt::format("sm_{}", arch));
      if (ptx) {
        facts::FatbinEntry ptx_entry;
        ptx_entry.kind = facts::FatbinEntryKind::ptx;
        ptx_entry.arch = arch;
        kernels.entries.push_back(ptx_entry);
        names.push_back(fmt::format("compute_{}", arch));
      }
    }
    std::set<std::pair<int, int>> seen;
    for (const auto& [major, minor] : ccs) {
      if (!seen.insert({major, minor}).second) continue;
      auto support = predict_support(kernels, major, minor);
      if (support.kind != KernelSupportKind::no_kernel_image) continue;
      auto ev = build_evidence(env, *b);
      ev.push_back(fmt::format("the {} wheels of torch {}.x are built for {} (TORCH_CUDA_ARCH_LIST, {})", variant,
                               version.size() >= 2 ? fmt::format("{}.{}", version[0], version[1]) : "?",
                               util::join(names, " "), t.at(*row, "source")));
      ev.push_back(fmt::format("the GPU reports compute capability {}.{} (sm_{}{})", major, minor, major, minor));
      ev.push_back(support.reason);
      out.emit(fmt::format("torch {} has kernels for {}…{}; this GPU is sm_{}{}: every kernel launch will fail with "
                           "\"no kernel image is available for execution on the device\".",
                           b->version, names.front(), names.back(), major, minor),
               std::move(ev),
               "Install a torch build whose architecture list includes this GPU (newer GPUs need newer cuXXX "
               "builds and a driver for them): " + v.torch_install_command(env, *b, BuildKind::cuda));
    }
  }
}

}  // namespace gpudoctor::checks::framework
