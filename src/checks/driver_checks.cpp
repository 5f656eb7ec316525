// Checks of the driver layer as the driver itself answers: the probe's own failures (a library
// that hangs, crashes or lacks symbols), CUDA initialisation, whether the driver runs the CUDA
// runtime and this machine's GPUs. Per-GPU health from NVML lives in gpu_checks.cpp.
#include <checks/check.hpp>
#include <checks/driver_checks.hpp>
#include <checks/driver_knowledge.hpp>
#include <checks/driver_view.hpp>
#include <checks/environment_view.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

namespace gpudoctor::checks {
namespace {

struct ProbedLibrary {
  const char* what;  // "NVML", "the CUDA driver (libcuda)", "the CUDA runtime (libcudart)"
  const facts::ProbeRun* run;
  const facts::LibraryLoad* load;
};

std::vector<ProbedLibrary> probed(const Facts& f) {
  return {{"NVML", &f.driver.nvml.run, &f.driver.nvml.library},
          {"the CUDA driver (libcuda)", &f.driver.cuda.run, &f.driver.cuda.library},
          {"the CUDA runtime (libcudart)", &f.driver.cudart.run, &f.driver.cudart.library}};
}

void check_probe_timeout(const Facts& f, FindingSink& out) {
  for (const auto& p : probed(f)) {
    if (p.run->outcome != facts::ProbeOutcome::timed_out) continue;
    out.emit(fmt::format("Asking {} hung: {} gave no answer within {} ms and was killed. Programs that use it will "
                         "hang the same way.",
                         p.what, p.run->library, p.run->timeout_ms),
             {fmt::format("child process `gpudoctor __probe-driver` for {}: {}", p.run->library, p.run->detail)});
  }
}

void check_probe_crashed(const Facts& f, FindingSink& out) {
  for (const auto& p : probed(f)) {
    if (p.run->outcome != facts::ProbeOutcome::crashed) continue;
    out.emit(fmt::format("Asking {} crashed the process that loaded it ({}).", p.what, p.run->library),
             {fmt::format("child process for {} ended by {}", p.run->library, p.run->detail)});
  }
}

void check_symbol_missing(const Facts& f, FindingSink& out) {
  for (const auto& p : probed(f)) {
    if (p.load->missing_required.empty()) continue;
    out.emit(fmt::format("{} does not export what every version of {} does: it is not the real library (a stub, a "
                         "wrapper, or a broken install), so nothing was asked.",
                         p.load->path.value_or(p.load->requested), p.what),
             {fmt::format("missing: {}", util::join(p.load->missing_required, ", ")),
              fmt::format("loaded: {}", p.load->path.value_or(p.load->requested))});
  }
}

void check_cuda_init_failed(const Facts& f, FindingSink& out) {
  const auto& c = f.driver.cuda;
  if (!c.init_result || *c.init_result == 0) return;
  int code = *c.init_result;
  std::vector<std::string> evidence = {
      fmt::format("cuInit(0) = {} ({}) in {}", code, c.init_error_name.empty() ? "?" : c.init_error_name,
                  c.library.path.value_or(c.library.requested))};
  if (c.driver_version && *c.driver_version > 0) {
    evidence.push_back(fmt::format("cuDriverGetVersion: CUDA {}", cuda_version_string(*c.driver_version)));
  }
  std::string fix;
  auto meaning = cuda_error(CudaApi::driver, code);
  if (code == 34) {
    fix = "Remove the toolkit's stubs directory from LD_LIBRARY_PATH (and unset GPUDOCTOR_CUDA_LIBRARY if it names "
          "it); the driver's own libcuda.so.1 comes with the NVIDIA driver package.";
  } else if (code == 999) {
    fix = "Reload the unified-memory module: `sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm` (in a container: on "
          "the host, then restart the container); if that fails, `sudo dmesg | grep -i nvrm` and reboot.";
  } else if (code == 804) {
    fix = "Remove the forward-compatibility libcuda (cuda-compat, /usr/local/cuda/compat on LD_LIBRARY_PATH) or "
          "upgrade the driver instead; forward compatibility works on data-center GPUs only.";
  } else if (code == 803) {
    fix = "Make libcuda.so.1 the same version as the kernel module: remove stray copies (containers, compat "
          "directories) or reboot after the driver upgrade.";
  } else if (code == 100) {
    fix = "Check CUDA_VISIBLE_DEVICES and that /dev/nvidia0... are accessible (containers: --gpus all).";
  }
  if (meaning) evidence.push_back("source: " + meaning->source);
  out.emit(fmt::format("CUDA cannot start: {}", describe_cuda_error(CudaApi::driver, code)), std::move(evidence), fix);
}

bool nvidia_gpu_possible(const Facts& f) {
  EnvironmentView v(f.environment);
  return !v.pci_known() || !v.gpus(k_vendor_nvidia).empty();
}

void check_no_driver_for_runtime(const Facts& f, FindingSink& out) {
  const auto& rt = f.driver.cudart;
  if (!rt.device_count_result || *rt.device_count_result != 35) return;
  const auto& cuda = f.driver.cuda;
  bool no_libcuda = cuda.run.outcome == facts::ProbeOutcome::answered && !cuda.library.path;
  // cudaDriverGetVersion: "If no driver is installed, then 0 is returned as the driver version".
  bool no_driver = (rt.driver_version && *rt.driver_version == 0) || no_libcuda;
  // Error 35 where the installed driver does support this runtime: the runtime did not find it.
  DriverView view(f);
  bool driver_not_found = !no_driver && rt.runtime_version && !view.driver_version().empty() &&
                          driver_support(cuda_version_string(*rt.runtime_version), view.driver_version()) ==
                              DriverSupport::full;
  if (driver_not_found) {
    out.emit(fmt::format("Driver {} supports CUDA {}, yet the CUDA runtime returned error 35 (\"driver version is "
                         "insufficient\"): it did not find that driver's libcuda.so.1 on the loader's path.",
                         view.driver_version(), cuda_version_string(*rt.runtime_version)),
             {fmt::format("cudaGetDeviceCount/cudaSetDevice = 35 (cudaErrorInsufficientDriver)"),
              fmt::format("driver {} ({})", view.driver_version(), view.driver_version_source()),
              fmt::format("CUDA runtime {} ({})", cuda_version_string(*rt.runtime_version),
                          rt.library.path.value_or(rt.library.requested))},
             "Put the directory holding the driver's libcuda.so.1 on the loader's path (ldconfig, or LD_LIBRARY_PATH "
             "of the service that runs the program), or reinstall the driver's user-space libraries.");
    return;
  }
  if (!no_driver) return;
  std::vector<std::string> evidence = {
      fmt::format("{}: cudaGetDeviceCount = 35 (cudaErrorInsufficientDriver)", rt.library.path.value_or(rt.library.requested))};
  if (rt.driver_version) evidence.push_back(fmt::format("cudaDriverGetVersion = {}", *rt.driver_version));
  if (!cuda.library.path) evidence.push_back(fmt::format("dlopen {}: {}", cuda.library.requested, cuda.library.path.why()));
  if (rt.runtime_version) evidence.push_back(fmt::format("CUDA runtime {}", cuda_version_string(*rt.runtime_version)));
  auto& fd = out.emit("No NVIDIA driver is installed: the CUDA runtime found no libcuda.so.1. Error 35 "
                      "(\"CUDA driver version is insufficient\") means exactly that here, not a driver that is too old.",
                      std::move(evidence));
  if (!nvidia_gpu_possible(f)) {
    fd.severity = Severity::warning;
    fd.evidence.push_back("no NVIDIA GPU on the PCI bus: the CUDA toolkit is installed on a machine without one");
  }
}

// The runtime version other layers may know (a framework's bundled CUDA) arrives here as the
// toolkit's libcudart for now.
void check_too_old_for_runtime(const Facts& f, FindingSink& out) {
  const auto& rt = f.driver.cudart;
  if (!rt.runtime_version) return;
  std::string runtime = cuda_version_string(*rt.runtime_version);
  DriverView view(f);
  DriverSupport support = DriverSupport::unknown;
  std::string driver_text;
  if (!view.driver_version().empty()) {
    support = driver_support(runtime, view.driver_version());
    driver_text = fmt::format("driver {} ({})", view.driver_version(), view.driver_version_source());
  }
  int driver_cuda = f.driver.cuda.driver_version.value_or(0);
  if (driver_cuda <= 0) driver_cuda = f.driver.nvml.cuda_driver_version.value_or(0);
  if (driver_cuda <= 0) driver_cuda = rt.driver_version.value_or(0);
  // Else the newest CUDA release the driver's version serves (data/cuda_driver_versions.tsv).
  bool cuda_from_table = false;
  if (driver_cuda <= 0 && !view.driver_version().empty()) {
    driver_cuda = cuda_of_driver(view.driver_version()).value_or(0);
    cuda_from_table = driver_cuda > 0;
  }
  if (support == DriverSupport::unknown && driver_cuda > 0) {
    support = driver_support_by_cuda(runtime, driver_cuda);
    driver_text = fmt::format("driver supports CUDA {}", cuda_version_string(driver_cuda));
  }
  if (support == DriverSupport::full || support == DriverSupport::unknown) return;
  std::vector<std::string> evidence = {driver_text,
                                       fmt::format("CUDA runtime {} ({})", runtime, rt.library.path.value_or(rt.library.requested))};
  if (driver_cuda > 0) {
    evidence.push_back(cuda_from_table ? fmt::format("driver {} serves CUDA up to {} (data/cuda_driver_versions.tsv)",
                                                     view.driver_version(), cuda_version_string(driver_cuda))
                                       : fmt::format("the driver's CUDA version: {}", cuda_version_string(driver_cuda)));
  }
  auto req = driver_requirement(runtime);
  if (req) {
    evidence.push_back(fmt::format("CUDA {} ships with driver {}{}", req->cuda, req->driver,
                                   req->mvc_driver.empty() ? "" : fmt::format("; minor-version compatibility from {}", req->mvc_driver)));
  }
  std::string need = req ? req->driver : "a newer one";
  std::string fix = fmt::format("Install driver {} or newer, or use a build of the framework for CUDA {} or older.", need,
                                driver_cuda > 0 ? cuda_version_string(driver_cuda) : "the driver's");
  if (support == DriverSupport::minor_compatibility) {
    auto& fd = out.emit(fmt::format("The driver supports CUDA up to {}; the runtime is CUDA {}. It runs under minor-version "
                                    "compatibility: PTX built by the newer toolkit cannot be JIT-compiled, and newer APIs fail.",
                                    driver_cuda > 0 ? cuda_version_string(driver_cuda) : "an older 12.x/11.x", runtime),
                        std::move(evidence), fix);
    fd.severity = Severity::warning;
    return;
  }
  out.emit(fmt::format("The driver is too old for the CUDA {} runtime: it supports CUDA up to {}. CUDA reports error 35 "
                       "(cudaErrorInsufficientDriver).",
                       runtime, driver_cuda > 0 ? cuda_version_string(driver_cuda) : "an older version"),
           std::move(evidence), fix);
}

void check_gpu_unsupported_by_driver(const Facts& f, FindingSink& out) {
  DriverView view(f);
  const int branch = view.driver_branch();
  if (branch == 0) return;
  for (const auto& g : view.gpus()) {
    if (!g.cc) continue;
    auto arch = architecture(*g.cc);
    if (!arch || still_driven_by(*arch, branch)) continue;
    out.emit(fmt::format("{} is a {} GPU ({}); NVIDIA's {} driver branch was the last to support it, and driver {} does not.",
                         g.label, arch->name, g.cc->sm(), arch->last_driver_branch, view.driver_version()),
             {fmt::format("compute capability {} from {}", g.cc->dotted(), g.cc_source),
              fmt::format("driver {} from {}", view.driver_version(), view.driver_version_source()),
              "source: " + arch->source},
             fmt::format("Install the {} legacy driver branch (newest {}.xx), or move the work to a newer GPU.",
                         arch->last_driver_branch, arch->last_driver_branch));
  }
}

void check_open_module_required(const Facts& f, FindingSink& out) {
  if (f.environment.kernel.nvidia_flavor != facts::NvidiaModuleFlavor::proprietary) return;
  DriverView view(f);
  for (const auto& g : view.gpus()) {
    bool required = product_requires_open_module(g.device_id, g.name) ||
                    (g.pci && product_requires_open_module(g.device_id, g.pci->device_name));
    std::string why = "product";
    if (!required && g.cc) {
      auto arch = architecture(*g.cc);
      required = arch && arch->open_module == OpenModule::required;
      if (arch) why = arch->name;
    }
    if (!required) continue;
    out.emit(fmt::format("{} needs the NVIDIA open kernel modules, but the proprietary module is loaded: the driver does "
                         "not initialise it (dmesg: \"requires use of the NVIDIA open kernel modules\").",
                         g.label),
             {fmt::format("loaded: {}", f.environment.kernel.nvidia_version_banner.value_or("proprietary nvidia module")),
              g.cc ? fmt::format("{} GPU, compute capability {} ({})", why, g.cc->dotted(), g.cc_source)
                   : fmt::format("product {}", g.name)});
  }
}

void check_nvml_init_failed(const Facts& f, FindingSink& out) {
  const auto& n = f.driver.nvml;
  if (n.init_error.code == 0) return;
  auto& fd = out.emit(fmt::format("NVML cannot start: {}", describe_nvml_error(n.init_error.code, n.init_error.text)),
                      {fmt::format("nvmlInit_v2 = {} \"{}\" in {}", n.init_error.code, n.init_error.text,
                                   n.library.path.value_or(n.library.requested))});
  if (n.init_error.code == 9 || n.init_error.code == 18) {
    fd.fix = n.init_error.code == 18
                 ? "Reboot (or unload and reload the nvidia modules) so the kernel module matches the installed driver."
                 : "Load the kernel module: `sudo modprobe nvidia` (see driver.module_not_loaded).";
  }
}

void check_cuda_nvml_disagree(const Facts& f, FindingSink& out) {
  const auto& n = f.driver.nvml;
  const auto& c = f.driver.cuda;
  if (!n.device_count || !c.device_count || *n.device_count == *c.device_count) return;
  std::vector<std::string> evidence = {fmt::format("NVML: {} GPU(s); CUDA: {} device(s)", *n.device_count, *c.device_count)};
  EnvironmentView env(f.environment);
  auto visible = env.env("CUDA_VISIBLE_DEVICES");
  if (visible) evidence.push_back(fmt::format("CUDA_VISIBLE_DEVICES={}", *visible));
  int mig = 0;
  for (const auto& d : n.devices) mig += d.mig_mode.value_or(0) == 1 ? 1 : 0;
  if (mig > 0) evidence.push_back(fmt::format("{} GPU(s) in MIG mode: CUDA sees MIG instances, not GPUs", mig));
  if (visible || mig > 0) {
    auto& fd = out.emit(fmt::format("CUDA sees {} device(s) where NVML lists {} GPU(s).", *c.device_count, *n.device_count),
                        std::move(evidence));
    fd.severity = Severity::info;
    return;
  }
  out.emit(fmt::format("CUDA sees {} device(s) where NVML lists {} GPU(s), with nothing set to hide any.", *c.device_count,
                       *n.device_count),
           std::move(evidence));
}

const Check k_checks[] = {
    {{"probe.timeout", Layer::driver, Severity::error, "A driver library hung when asked",
      "the child process asking NVML, libcuda or libcudart gave no answer before the deadline (`check --timeout`)",
      "Look for a GPU in a bad state: `sudo dmesg | grep -i -e nvrm -e xid`; reset the GPU (`nvidia-smi -r`) or reboot."},
     check_probe_timeout},
    {{"probe.crashed", Layer::driver, Severity::error, "A driver library crashed when asked",
      "the child process asking NVML, libcuda or libcudart was killed by a signal",
      "Reinstall the driver (a damaged or mismatched user-space library is the usual cause), and check which file was "
      "loaded (GPUDOCTOR_*_LIBRARY, LD_LIBRARY_PATH)."},
     check_probe_crashed},
    {{"probe.symbol_missing", Layer::driver, Severity::error, "A driver library lacks required entry points",
      "NVML, libcuda or libcudart loaded but does not export a function every real version has",
      "Make the loader find the driver's own library: remove stubs or wrappers from LD_LIBRARY_PATH, reinstall the "
      "driver."},
     check_symbol_missing},
    {{"driver.nvml_init_failed", Layer::driver, Severity::error, "nvmlInit failed",
      "libnvidia-ml loaded and nvmlInit_v2 returned an error (explained from data/nvml_errors.tsv)",
      "Follow the cause given for the error code."},
     check_nvml_init_failed},
    {{"driver.cuda_init_failed", Layer::driver, Severity::error, "cuInit failed",
      "libcuda loaded and cuInit(0) returned an error (explained from data/cuda_errors.tsv: 34 stub library, 999 "
      "nvidia_uvm, 803 version mismatch, 804 forward compatibility ...)",
      "Follow the cause given for the error code."},
     check_cuda_init_failed},
    {{"driver.no_driver_for_runtime", Layer::driver, Severity::error, "CUDA runtime present, no NVIDIA driver",
      "libcudart's cudaGetDeviceCount returns 35 and cudaDriverGetVersion 0 (or libcuda.so.1 cannot be loaded); "
      "warning when no NVIDIA GPU is on the PCI bus",
      "Install the NVIDIA driver (it provides libcuda.so.1); in a container, run it with the NVIDIA runtime (--gpus "
      "all)."},
     check_no_driver_for_runtime},
    {{"driver.too_old_for_runtime", Layer::driver, Severity::error, "Driver older than the CUDA runtime",
      "the CUDA runtime's version needs a newer driver than the one loaded (data/cuda_driver_versions.tsv); warning "
      "when it runs under minor-version compatibility",
      "Upgrade the driver, or install a framework build for the driver's CUDA version."},
     check_too_old_for_runtime},
    {{"driver.gpu_unsupported_by_driver", Layer::driver, Severity::error, "GPU architecture dropped by this driver",
      "the driver branch is newer than the last one for the GPU's architecture (Kepler: 470; Maxwell, Pascal, Volta: "
      "580), by NVML's or the PCI id's compute capability",
      "Install the legacy driver branch for the GPU."},
     check_gpu_unsupported_by_driver},
    {{"driver.open_module_required", Layer::driver, Severity::error, "GPU needs the open kernel modules",
      "the proprietary nvidia module is loaded (/proc/driver/nvidia/version) and a GPU is Blackwell or Grace Hopper",
      "Install the open kernel modules of the same driver (`nvidia-open` / `nvidia-driver-XXX-open`, or the .run "
      "installer's `-m=kernel-open`) and reboot."},
     check_open_module_required},
    {{"driver.cuda_nvml_disagree", Layer::driver, Severity::warning, "CUDA and NVML count different GPUs",
      "cuDeviceGetCount differs from nvmlDeviceGetCount (info when CUDA_VISIBLE_DEVICES or MIG explains it)",
      "Check CUDA_VISIBLE_DEVICES, MIG configuration and the device nodes this process can open."},
     check_cuda_nvml_disagree},
};

}  // namespace

std::span<const Check> driver_api_checks() { return k_checks; }

std::span<const Check> driver_checks() {
  static const std::vector<Check> k_all = [] {
    std::vector<Check> all;
    for (auto part : {driver_api_checks(), gpu_checks()}) all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return k_all;
}

}  // namespace gpudoctor::checks
