// PyTorch checks: what the installed build can drive (torch/version.py, its GPU libraries) against
// what this machine has (GPU vendor, the CUDA version the driver supports), and which copy an
// import loads. Sources: torch/version.py is written by tools/generate_torch_version.py;
// torch.cuda.is_available() is False on a build without CUDA (torch/cuda/__init__.py
// _is_compiled); CUDA minor version compatibility lets a 12.x runtime start on any 12.x driver but
// not run PTX newer than the driver (CUDA Compatibility guide, "Minor Version Compatibility").
#include <checks/framework_check_fns.hpp>

#include <checks/environment_view.hpp>
#include <checks/framework_view.hpp>

#include <fmt/format.h>

namespace gpudoctor::checks::framework {
namespace {

using facts::BuildKind;
using facts::Framework;


}  // namespace

void torch_cpu_only_build(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    if (!b || b->kind != BuildKind::cpu) continue;
    auto ev = build_evidence(env, *b);
    if (!b->package_dir.empty()) ev.push_back(fmt::format("no {}/lib/libtorch_cuda.so", b->package_dir));
    // A machine whose PCI bus was not read (a described one) may well have an NVIDIA GPU.
    bool nvidia = v.nvidia_gpu() || (!EnvironmentView(f.environment).pci_known() && !v.amd_gpu());
    bool amd = v.amd_gpu();
    std::string fix;
    if (nvidia) fix = v.torch_install_command(env, *b, BuildKind::cuda);
    else if (amd) fix = v.torch_install_command(env, *b, BuildKind::rocm);
    else fix = "Nothing to change on this machine (it has no GPU); on a GPU machine install a CUDA or ROCm build.";
    auto& finding = out.emit(fmt::format("torch {} in {} is a CPU-only build: torch.cuda.is_available() is always "
                                         "False.",
                                         b->version, environment_name(env)),
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
    ev.push_back(fmt::format("the driver {}supports CUDA {} ({})", driver_name.empty() ? "" : driver_name + " ",
                             cuda_version_text(*driver), *driver));
    // Minor version compatibility exists from CUDA 11 on: a 10.1 build on a 10.0 driver does not start.
    // https://docs.nvidia.com/deploy/cuda-compatibility/#minor-version-compatibility
    bool same_major = *built / 1000 == *driver / 1000 && *built >= 11000;
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
                         environment_name(env)),
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
                         environment_name(env)),
             build_evidence(env, *b), v.torch_install_command(env, *b, BuildKind::rocm));
  }
}

void torch_shadowed(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::torch);
    for (const auto& s : env.shadows) {
      if (s.module != "torch") continue;
      std::vector<std::string> ev = {fmt::format("{}: {} ({})", environment_name(env), s.path, s.where)};
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
                         all.size(), environment_name(env), all.front()->version, all.front()->package_dir),
             std::move(ev),
             fmt::format("Keep one: `{} uninstall torch` until `{} show torch` finds none, then install the build you "
                         "want once (user-site copies live under ~/.local).",
                         pip_command(env), pip_command(env)));
  }
}

}  // namespace gpudoctor::checks::framework
