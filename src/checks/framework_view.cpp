#include <checks/framework_view.hpp>

#include <checks/driver_knowledge.hpp>
#include <checks/driver_view.hpp>
#include <checks/environment_view.hpp>
#include <data/tsv.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace gpudoctor::checks {
namespace {

// "2.7-" / "2.0-2.7": does release series `minor` (e.g. {2, 5}) fall in the range?
bool in_series(std::string_view range, const std::vector<int>& version) {
  auto dash = range.find('-');
  auto lo = util::parse_version(range.substr(0, dash)).value_or(std::vector<int>{});
  auto hi_text = dash == std::string_view::npos ? range : range.substr(dash + 1);
  std::vector<int> series(version.begin(), version.begin() + std::min<std::size_t>(2, version.size()));
  if (util::compare_versions(series, lo) < 0) return false;
  if (hi_text.empty()) return true;
  auto hi = util::parse_version(hi_text).value_or(std::vector<int>{});
  return util::compare_versions(series, hi) <= 0;
}

bool open_ended(std::string_view range) { return range.ends_with('-'); }

}  // namespace

std::optional<int> cuda_version_number(std::string_view dotted) {
  auto v = util::parse_version(dotted);
  if (!v || v->empty()) return std::nullopt;
  int minor = v->size() > 1 ? (*v)[1] : 0;
  return (*v)[0] * 1000 + minor * 10;
}

std::string cuda_version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

std::string public_version(std::string_view version) { return std::string(version.substr(0, version.find('+'))); }

std::string environment_name(const facts::PythonEnvironment& env) {
  return env.label.empty() ? env.interpreter : env.label;
}

std::vector<std::string> build_evidence(const facts::PythonEnvironment& env, const facts::FrameworkBuild& b) {
  std::vector<std::string> ev;
  if (!b.package_dir.empty()) {
    ev.push_back(fmt::format("{}: import {} loads {}", environment_name(env), to_string(b.framework), b.package_dir));
  }
  ev.insert(ev.end(), b.evidence.begin(), b.evidence.end());
  return ev;
}

std::string pip_command(const facts::PythonEnvironment& env) {
  if (env.interpreter.empty()) return "python -m pip";  // a described environment: its interpreter is not known
  bool plain = env.interpreter.find_first_of(" '\"$`\\") == std::string::npos;
  return fmt::format("{} -m pip", plain ? env.interpreter : "'" + env.interpreter + "'");
}

bool FrameworkView::nvidia_gpu() const {
  EnvironmentView v(m_f.environment);
  if (!v.gpus(k_vendor_nvidia).empty() || !v.nvidia_gpu_nodes().empty()) return true;
  return m_f.driver.nvml.device_count.value_or(0) > 0 || m_f.driver.cuda.device_count.value_or(0) > 0;
}

bool FrameworkView::amd_gpu() const {
  EnvironmentView v(m_f.environment);
  return !v.gpus(k_vendor_amd).empty() || !m_f.environment.amd.kfd_gpus.empty();
}

std::optional<int> FrameworkView::driver_cuda_version() const {
  const auto& d = m_f.driver;
  if (d.nvml.cuda_driver_version && *d.nvml.cuda_driver_version > 0) return *d.nvml.cuda_driver_version;
  if (d.cuda.driver_version && *d.cuda.driver_version > 0) return *d.cuda.driver_version;
  if (d.cudart.driver_version && *d.cudart.driver_version > 0) return *d.cudart.driver_version;
  // Only the driver's release is known (collect_env, a module version, a post): its CUDA version
  // follows from the release it shipped with.
  if (auto release = DriverView(m_f).driver_version(); !release.empty()) return cuda_of_driver(release);
  return std::nullopt;
}

std::string FrameworkView::driver_version() const {
  if (m_f.driver.nvml.driver_version) return *m_f.driver.nvml.driver_version;
  return EnvironmentView(m_f.environment).nvidia_module_version();
}

std::vector<FrameworkView::Gpu> FrameworkView::gpus_with_capability() const {
  std::vector<Gpu> out;
  DriverView driver(m_f);
  for (const auto& g : driver.gpus()) {
    if (g.cc) out.push_back({g.cc->major, g.cc->minor, g.label, g.cc_source});
  }
  if (!out.empty()) return out;
  for (const auto& d : m_f.driver.cuda.devices) {
    if (!d.cc_major || !d.cc_minor) continue;
    out.push_back({*d.cc_major, *d.cc_minor,
                   fmt::format("CUDA device {}{}", d.ordinal, d.name ? " " + *d.name : std::string()),
                   "cuDeviceGetAttribute"});
  }
  return out;
}

const std::vector<facts::PythonEnvironment>& FrameworkView::environments() const {
  static const std::vector<facts::PythonEnvironment> k_none;
  return m_f.framework.environments ? *m_f.framework.environments : k_none;
}

const facts::FrameworkBuild* FrameworkView::imported(const facts::PythonEnvironment& env, facts::Framework fw) {
  for (const auto& b : env.builds) {
    if (b.framework == fw) return &b;
  }
  return nullptr;
}

std::vector<const facts::FrameworkBuild*> FrameworkView::builds(const facts::PythonEnvironment& env,
                                                                 facts::Framework fw) {
  std::vector<const facts::FrameworkBuild*> out;
  for (const auto& b : env.builds) {
    if (b.framework == fw) out.push_back(&b);
  }
  return out;
}

std::string FrameworkView::torch_install_command(const facts::PythonEnvironment& env,
                                                 const facts::FrameworkBuild& current, facts::BuildKind kind) const {
  const auto& t = data::table("torch_variants.tsv");
  std::string want_kind = kind == facts::BuildKind::rocm ? "rocm" : "cuda";
  auto version = util::parse_version(public_version(current.version)).value_or(std::vector<int>{});
  auto driver = driver_cuda_version();
  // Best row: same release series available (keeps the user's torch version), else a current one;
  // among those the newest CUDA the driver supports.
  std::optional<std::size_t> best;
  bool best_keeps = false;
  int best_cuda = 0;
  for (std::size_t r = 0; r < t.size(); ++r) {
    if (t.at(r, "kind") != want_kind) continue;
    int cuda = 0;
    if (want_kind == "cuda") {
      cuda = cuda_version_number(t.at(r, "cuda")).value_or(0);
      if (driver && cuda > *driver) continue;
    } else {
      cuda = cuda_version_number(t.at(r, "cuda")).value_or(0);
    }
    bool keeps = !version.empty() && in_series(t.at(r, "torch"), version);
    if (!keeps && !open_ended(t.at(r, "torch"))) continue;
    if (!best || (keeps && !best_keeps) || (keeps == best_keeps && cuda > best_cuda)) {
      best = r;
      best_keeps = keeps;
      best_cuda = cuda;
    }
  }
  if (!best) {
    return fmt::format("No PyTorch {} build supports this driver's CUDA {}: upgrade the NVIDIA driver, then install a "
                       "CUDA build from https://pytorch.org/get-started/locally/.",
                       want_kind == "cuda" ? "CUDA" : "ROCm", driver ? cuda_version_text(*driver) : "?");
  }
  auto pin = best_keeps ? "torch==" + public_version(current.version) : std::string("torch");
  bool has_companions = std::any_of(env.distributions.begin(), env.distributions.end(), [](const facts::Distribution& d) {
    return d.name == "torchvision" || d.name == "torchaudio";
  });
  auto command = fmt::format("{} install --force-reinstall {} --index-url {}", pip_command(env), pin,
                             t.at(*best, "index_url"));
  std::string why = want_kind == "cuda"
                        ? (driver ? fmt::format(" ({} is the newest CUDA build for a driver that supports CUDA {})",
                                                t.at(*best, "variant"), cuda_version_text(*driver))
                                  : fmt::format(" (the driver did not say which CUDA it supports: `nvidia-smi` shows "
                                                "it; pick the cuXXX index at or below it)"))
                        : "";
  auto pip_fix = fmt::format("Install the {} build: `{}`{}{}.", want_kind == "cuda" ? "CUDA" : "ROCm", command, why,
                              has_companions ? "; reinstall torchvision/torchaudio from the same index" : "");
  if (current.installer != "conda") return pip_fix;
  // pip over a conda-managed torch leaves conda's record stale and its next solve puts the old build
  // back, so the fix stays in one package manager. conda-forge's pytorch-gpu metapackage selects a CUDA
  // build the driver supports (the __cuda virtual package); PyTorch's own conda channel ended with 2.5.
  auto target = env.prefix.empty() ? std::string() : " -p " + env.prefix;
  if (want_kind == "cuda") {
    return fmt::format("This torch was installed by conda: replace it with conda, `conda install{} -c conda-forge "
                       "pytorch-gpu`, or leave conda for torch altogether, `conda remove{} --force pytorch`, and then: "
                       "{}",
                       target, target, pip_fix);
  }
  return fmt::format("This torch was installed by conda, which has no ROCm build of it: `conda remove{} --force "
                     "pytorch`, then: {}",
                     target, pip_fix);
}

}  // namespace gpudoctor::checks
