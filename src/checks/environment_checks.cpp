// Checks of the environment layer: is there a GPU, is it bound to a driver CUDA can use, does this
// container / WSL / environment let the process see it. Sources for each rule are in the research
// notes (shared reference) and in docs/checks.md.
#include <checks/check.hpp>
#include <checks/environment_view.hpp>
#include <data/tsv.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <span>
#include <string_view>

namespace gpudoctor::checks {
namespace {

using facts::EnvironmentFacts;

std::string hex_driver(const facts::PciDevice& d) {
  return fmt::format("/sys/bus/pci/devices/{}/driver -> {}", d.address,
                     d.driver ? (d.driver->empty() ? std::string("(none)") : *d.driver) : "unknown: " + d.driver.why());
}

bool has_accelerator_node(const EnvironmentView& v) {
  for (auto prefix : {"/dev/accel", "/dev/neuron", "/dev/davinci"}) {
    if (!v.nodes_with_prefix(prefix).empty()) return true;
  }
  return false;
}

void check_no_gpu(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  if (!v.pci_known() || !v.nodes_known()) return;  // probe.unreadable says why
  if (!v.gpus(k_vendor_nvidia).empty() || !v.gpus(k_vendor_amd).empty() || !v.gpus(k_vendor_intel).empty()) return;
  if (v.any_nvidia_node() || v.node("/dev/kfd") || f.environment.wsl.dxg.value_or(false) || has_accelerator_node(v)) return;
  for (const auto& d : *f.environment.pci.devices) {
    if (d.vendor_id == k_vendor_google || d.vendor_id == k_vendor_habana || (d.class_code >> 16) == 0x12) return;
  }
  std::vector<std::string> evidence = {
      fmt::format("{} PCI functions, none a GPU or accelerator", f.environment.pci.function_count.value_or(0)),
      "no /dev/nvidia*, /dev/kfd, /dev/dxg or accelerator device nodes"};
  for (const auto& d : *f.environment.pci.devices) {
    evidence.push_back(fmt::format("display adapter {} is not a compute GPU", v.describe(d)));
  }
  std::string message = "This machine has no GPU or accelerator: nothing on the PCI bus and no device node.";
  std::string fix = "Nothing to fix in software. Run on a machine (or cloud instance type) with a GPU.";
  if (f.environment.container.in_container) {
    message = fmt::format("This {} container sees no GPU or accelerator.", f.environment.container.runtime);
    fix = "If the host has a GPU, start the container with it: docker run --gpus all, podman run --device "
          "nvidia.com/gpu=all, or a Kubernetes limit of nvidia.com/gpu.";
  }
  out.emit(message, std::move(evidence), fix);
}

void check_no_compute_gpu(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  auto intel = v.gpus(k_vendor_intel);
  if (intel.empty() || !v.gpus(k_vendor_nvidia).empty() || !v.gpus(k_vendor_amd).empty()) return;
  if (v.any_nvidia_node() || f.environment.wsl.dxg.value_or(false)) return;
  std::vector<std::string> evidence;
  for (const auto* d : intel) evidence.push_back(fmt::format("{} bound to {}", v.describe(*d), d->driver.value_or("?")));
  out.emit("The only GPU is an Intel GPU: CUDA and ROCm builds of PyTorch, TensorFlow and JAX cannot use it.",
           std::move(evidence));
}

void check_gpu_no_driver(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  for (auto vendor : {k_vendor_nvidia, k_vendor_amd}) {
    for (const auto* d : v.gpus(vendor)) {
      if (!d->driver || !d->driver->empty()) continue;
      std::vector<std::string> evidence = {hex_driver(*d)};
      std::string fix;
      if (vendor == k_vendor_nvidia) {
        bool loaded = v.module_loaded("nvidia");
        evidence.push_back(loaded ? fmt::format("the nvidia module {} is loaded but did not take this GPU",
                                                v.nvidia_module_version())
                                  : "no nvidia kernel module is loaded");
        fix = loaded ? "The driver refused the GPU: read `sudo dmesg | grep NVRM` (\"RmInitAdapter failed\", "
                       "\"requires use of the NVIDIA open kernel modules\", Xid 79 \"fallen off the bus\")."
                     : "Install the NVIDIA driver for this GPU (Debian/Ubuntu: `sudo apt install nvidia-driver` or "
                       "`sudo ubuntu-drivers install`), then reboot.";
      } else {
        evidence.push_back(v.module_loaded("amdgpu") ? "amdgpu is loaded but did not take this GPU"
                                                     : "the amdgpu module is not loaded");
        fix = "Load amdgpu (`sudo modprobe amdgpu`); if it refuses the GPU, `sudo dmesg | grep amdgpu` says why; "
              "install AMD's amdgpu-dkms for GPUs newer than the kernel.";
      }
      out.emit(fmt::format("{} has no kernel driver bound: no program can use it.", v.describe(*d)),
               std::move(evidence), fix);
    }
  }
}

void check_nouveau_bound(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  for (const auto* d : v.gpus(k_vendor_nvidia)) {
    if (!d->driver || *d->driver != "nouveau") continue;
    std::vector<std::string> evidence = {hex_driver(*d)};
    const auto& bl = f.environment.kernel.nouveau_blacklist;
    std::string fix;
    if (bl.empty()) {
      evidence.push_back("nouveau is not blacklisted in /etc/modprobe.d");
      fix = "Install the NVIDIA driver and blacklist nouveau: printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | "
            "sudo tee /etc/modprobe.d/blacklist-nouveau.conf; sudo update-initramfs -u; then reboot.";
    } else {
      for (const auto& b : bl) evidence.push_back("blacklisted: " + b);
      fix = "nouveau is blacklisted but still loaded from the initramfs: run `sudo update-initramfs -u` "
            "(dracut: `sudo dracut --force`) and reboot.";
    }
    out.emit(fmt::format("{} is driven by nouveau, the open-source driver, which CUDA cannot use.", v.describe(*d)),
             std::move(evidence), fix);
  }
}

void check_vfio_bound(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  int usable = 0;
  std::vector<const facts::PciDevice*> vfio;
  for (auto vendor : {k_vendor_nvidia, k_vendor_amd}) {
    for (const auto* d : v.gpus(vendor)) {
      if (d->driver && *d->driver == "vfio-pci") vfio.push_back(d);
      else if (d->driver && (*d->driver == "nvidia" || *d->driver == "amdgpu")) ++usable;
    }
  }
  for (const auto* d : vfio) {
    auto& fd = out.emit(fmt::format("{} is bound to vfio-pci: it is reserved for passing through to a virtual "
                                    "machine and cannot be used on this host.",
                                    v.describe(*d)),
                        {hex_driver(*d), fmt::format("{} other GPU(s) bound to a compute driver", usable)});
    if (usable > 0) fd.severity = Severity::warning;
  }
}

void check_pcie_width(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  for (auto vendor : {k_vendor_nvidia, k_vendor_amd}) {
    for (const auto* d : v.gpus(vendor)) {
      if (!d->current_link_width || !d->max_link_width) continue;
      if (*d->current_link_width <= 0 || *d->current_link_width >= *d->max_link_width) continue;
      out.emit(fmt::format("{} runs its PCIe link at x{} of x{} lanes: host-device copies are slower.",
                           v.describe(*d), *d->current_link_width, *d->max_link_width),
               {fmt::format("/sys/bus/pci/devices/{}/current_link_width = {}", d->address, *d->current_link_width),
                fmt::format("/sys/bus/pci/devices/{}/max_link_width = {}", d->address, *d->max_link_width),
                "(a lower link *speed* at idle is normal power saving; a lower *width* is not)"});
    }
  }
}

// `docker run` and `podman run` pass a GPU only when asked: --gpus (Docker 19.03+ with the NVIDIA
// container toolkit), --runtime=nvidia with NVIDIA_VISIBLE_DEVICES (nvidia-docker2), a CDI device
// (nvidia.com/gpu=...), or the nvidia-docker wrapper.
// What brings a GPU and the driver's libraries into a container: the NVIDIA runtime or its hook, CDI,
// and Singularity's and Apptainer's --nv (or --nvccli).
constexpr std::string_view k_gpu_runtime_flags[] = {"--gpus", "--runtime=nvidia", "--runtime nvidia", "nvidia.com/gpu",
                                                    "NVIDIA_VISIBLE_DEVICES", "nvidia-docker", " --nv"};

bool mentions_any(std::string_view command, std::span<const std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return command.find(w) != std::string_view::npos; });
}

bool requests_gpu(std::string_view command) {
  return mentions_any(command, k_gpu_runtime_flags) || command.find("/dev/nvidia") != std::string_view::npos;
}

// The device nodes passed by hand (`docker run --device /dev/nvidia0 ...`) and nothing that brings the
// driver's user-space libraries in: CUDA images carry no driver; the NVIDIA runtime mounts the host's.
bool devices_without_driver(std::string_view command) {
  if (command.find("/dev/nvidia") == std::string_view::npos || command.find("--device") == std::string_view::npos) {
    return false;
  }
  constexpr std::string_view k_library_mounts[] = {"libcuda", "/usr/lib", "-v /usr", "--volume"};
  return !mentions_any(command, k_gpu_runtime_flags) && !mentions_any(command, k_library_mounts);
}

void check_container_no_gpu(const Facts& f, FindingSink& out) {
  const auto& e = f.environment;
  if (e.container.launch_command && devices_without_driver(*e.container.launch_command)) {
    out.emit("The container gets the GPU's device nodes by hand but not the driver: CUDA images carry no driver "
             "library, and only the NVIDIA container runtime (--gpus) mounts the host's libcuda and nvidia-smi, so "
             "the CUDA runtime inside finds no usable driver (often error 35, \"driver version is insufficient\").",
             {"started with: " + *e.container.launch_command, "--device /dev/nvidia* without --gpus or --runtime=nvidia"});
    return;
  }
  if (e.container.launch_command && !requests_gpu(*e.container.launch_command)) {
    out.emit("The container was started without the GPU: its run command asks for none, so no GPU, no driver library "
             "and no nvidia-smi is passed in.",
             {"started with: " + *e.container.launch_command,
              e.container.runtime == "singularity" || e.container.runtime == "apptainer"
                  ? "no --nv in it (Singularity and Apptainer pass the GPU only with --nv)"
                  : "no --gpus, --runtime=nvidia or CDI device in it"});
    return;
  }
  EnvironmentView v(e);
  if (!e.container.in_container || !v.nodes_known()) return;
  if (v.any_nvidia_node() || v.has_driver_libraries()) return;
  auto requested = v.env("NVIDIA_VISIBLE_DEVICES");
  auto gpus = v.gpus(k_vendor_nvidia);
  bool requests = requested && !requested->empty() && *requested != "void" && *requested != "none";
  if (gpus.empty() && !requests) return;
  std::vector<std::string> evidence = {fmt::format("inside a {} container", e.container.runtime),
                                       "no /dev/nvidia* device nodes", "no libcuda.so or libnvidia-ml.so"};
  for (const auto* d : gpus) evidence.push_back(fmt::format("the host's {} is visible in /sys", v.describe(*d)));
  if (requests) evidence.push_back("NVIDIA_VISIBLE_DEVICES=" + *requested + ", but the NVIDIA runtime hook did not run");
  out.emit("This container was started without the GPU: the NVIDIA container runtime injected no device and no "
           "driver library.",
           std::move(evidence));
}

void check_visible_devices_void(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  auto value = v.env("NVIDIA_VISIBLE_DEVICES");
  if (!f.environment.container.in_container || !value) return;
  std::string s = util::sanitize_utf8(util::trim(*value));
  if (!s.empty() && s != "void" && s != "none") return;
  std::string meaning = s == "none" ? "driver libraries are injected, but no GPU"
                                    : "the NVIDIA runtime behaves like plain runc: neither GPUs nor libraries";
  out.emit(fmt::format("NVIDIA_VISIBLE_DEVICES is \"{}\": {}.", s, meaning),
           {fmt::format("NVIDIA_VISIBLE_DEVICES={}", s)});
}

void check_no_compute_capability(const Facts& f, FindingSink& out) {
  const auto& e = f.environment;
  EnvironmentView v(e);
  if (!e.container.in_container) return;
  auto caps = v.env("NVIDIA_DRIVER_CAPABILITIES");
  bool listed_without_compute = false;
  if (caps) {
    std::set<std::string> set;
    for (auto c : util::split(*caps, ',')) set.insert(std::string(util::trim(c)));
    listed_without_compute = !caps->empty() && !set.count("compute") && !set.count("all");
  }
  bool nvml = !v.driver_libraries(facts::DriverLibKind::libnvidia_ml).empty();
  bool cuda = false;
  for (const auto* lib : v.driver_libraries(facts::DriverLibKind::libcuda)) cuda = cuda || lib->path.ends_with(".so.1");
  bool observed = nvml && !v.nvidia_gpu_nodes().empty() && !cuda;
  if (!listed_without_compute && !observed) return;
  std::vector<std::string> evidence;
  if (caps) evidence.push_back("NVIDIA_DRIVER_CAPABILITIES=" + *caps);
  if (observed) evidence.push_back("libnvidia-ml.so and /dev/nvidia* are present, libcuda.so.1 is not");
  out.emit("The container's NVIDIA driver capabilities lack `compute`: nvidia-smi works, but libcuda.so.1 is not "
           "injected, so CUDA cannot start.",
           std::move(evidence));
}

// GPU paravirtualisation reached WSL 2 with Windows 10 21H2 (build 19044) and Windows 11; Insider
// builds had it from 20145 (https://learn.microsoft.com/windows/wsl/tutorials/gpu-compute;
// https://docs.nvidia.com/cuda/wsl-user-guide/).
constexpr int k_first_wsl_gpu_build = 19044;

// Microsoft's guide to CUDA in WSL asks for a WSL kernel of 5.10.43.3 or later
// (https://learn.microsoft.com/windows/ai/directml/gpu-cuda-in-wsl: `wsl cat /proc/version`);
// vllm-project/vllm#6184: on 5.10.16.3 CUDA found no driver, `wsl --update` to 5.15 fixed it.
const std::vector<int> k_first_wsl_gpu_kernel{5, 10, 43, 3};

// True when it reported a WSL 2 kernel too old for CUDA.
bool check_wsl_kernel(const Facts& f, FindingSink& out) {
  const auto& release = f.environment.kernel.release;
  if (!release.known() || !util::contains(*release, "microsoft-standard")) return false;
  auto version = util::parse_version(release->substr(0, release->find('-')));
  if (!version || version->size() < 3 || util::compare_versions(*version, k_first_wsl_gpu_kernel) >= 0) return false;
  out.emit(fmt::format("The WSL 2 kernel {} is older than 5.10.43.3, the least that Microsoft's guide to CUDA in WSL asks "
                       "for: on it, CUDA programs may find no NVIDIA driver.",
                       *release),
           {"kernel " + *release},
           "Update WSL's kernel from Windows: `wsl --update`, then `wsl --shutdown` and start the distribution again "
           "(`wsl cat /proc/version` shows the new kernel). Keep the NVIDIA driver on the Windows side only.");
  return true;
}

void check_wsl_no_gpu(const Facts& f, FindingSink& out) {
  const auto& w = f.environment.wsl;
  if (!w.is_wsl) return;
  if (w.windows_build && *w.windows_build < k_first_wsl_gpu_build) {
    out.emit(fmt::format("Windows build {} has no GPU support for WSL: CUDA in WSL needs WSL 2 on Windows 11 or Windows 10 "
                         "21H2 (build {}) or later, whatever driver is installed.",
                         *w.windows_build, k_first_wsl_gpu_build),
             {fmt::format("Windows 10.0.{}", *w.windows_build)},
             "Update Windows (Windows 11, or Windows 10 21H2 or later), convert the distribution to WSL 2 (`wsl "
             "--set-version <distro> 2`), and install the NVIDIA Windows driver only.");
    return;
  }
  if (w.is_wsl2 && check_wsl_kernel(f, out)) return;
  if (w.dxg.value_or(true)) return;  // /dev/dxg is there, or was not looked at
  if (!w.is_wsl2) {
    const auto& pv = f.environment.kernel.proc_version;
    out.emit("This is WSL 1, which has no GPU support.",
             {pv.known() && !pv->empty() ? "/proc/version: " + *pv : std::string("WSL 1, as the text shows")},
             "Convert the distribution to WSL 2: `wsl --set-version <distro> 2` in Windows.");
    return;
  }
  out.emit("WSL 2 without /dev/dxg: Windows is not sharing the GPU with this Linux.",
           {"/proc/version: " + f.environment.kernel.proc_version.value_or(""), "/dev/dxg does not exist"});
}

void check_wsl_linux_driver(const Facts& f, FindingSink& out) {
  const auto& w = f.environment.wsl;
  if (!w.is_wsl) return;
  EnvironmentView v(f.environment);
  std::vector<std::string> evidence;
  for (auto kind : {facts::DriverLibKind::libcuda, facts::DriverLibKind::libnvidia_ml}) {
    for (const auto* lib : v.driver_libraries(kind)) {
      evidence.push_back(fmt::format("{} -> {} (a Linux driver's library)", lib->path, lib->resolved_path));
    }
  }
  // WSL's own libnvidia-ml talks to the Windows driver through /dev/dxg and never needs a kernel
  // module; NVML_ERROR_DRIVER_NOT_LOADED (9) there comes from a Linux driver's libnvidia-ml.
  if (f.driver.nvml.init_error.code == 9) {
    evidence.push_back("nvmlInit: Driver Not Loaded (9) under WSL: the libnvidia-ml that was loaded looks for a Linux "
                       "kernel module");
  }
  if (evidence.empty()) return;
  out.emit("A Linux NVIDIA driver is installed inside WSL: its libcuda shadows the one under /usr/lib/wsl/lib that "
           "talks to the Windows driver.",
           std::move(evidence));
}

// CUDA_VISIBLE_DEVICES: "" hides every GPU; the list is cut at its first invalid entry (CUDA
// Programming Guide, environment variables appendix: "0,2,-1,1" makes devices 0 and 2 visible).
struct VisibleList {
  std::vector<std::string> visible;
  std::string first_invalid;
  std::string why_invalid;
  bool hidden_on_purpose = false;  // "", "-1", "NoDevFiles", "none"
};

VisibleList parse_visible(std::string_view value, std::optional<int> count, const std::vector<std::string>& uuids) {
  VisibleList out;
  auto trimmed = util::trim(value);
  if (trimmed.empty() || trimmed == "NoDevFiles" || trimmed == "none" || trimmed.starts_with("-")) {
    out.hidden_on_purpose = true;
    return out;
  }
  for (auto tok : util::split(trimmed, ',')) {
    auto t = util::trim(tok);
    std::string why;
    if (auto idx = util::parse_int(t)) {
      if (*idx < 0) why = "negative index";
      else if (count && *idx >= *count) why = fmt::format("index {} but only {} GPU(s)", *idx, *count);
    } else if (t.starts_with("GPU-") || t.starts_with("MIG-")) {
      if (t.starts_with("GPU-") && !uuids.empty()) {
        bool match = false;
        for (const auto& u : uuids) match = match || u.starts_with(t);
        if (!match) why = "no GPU has this UUID";
      }
    } else {
      why = "neither an index nor a GPU-/MIG- UUID";
    }
    if (!why.empty()) {
      out.first_invalid = util::sanitize_utf8(t);
      out.why_invalid = why;
      return out;
    }
    out.visible.emplace_back(t);
  }
  return out;
}

// The CUDA runtime answered and counted no device (cudaErrorNoDevice): a driver is there, and
// CUDA_VISIBLE_DEVICES, when set, is the first suspect.
bool cuda_saw_no_device(const Facts& f) { return f.driver.cudart.device_count.value_or(-1) == 0; }

bool has_cuda_capable(const Facts& f, const EnvironmentView& v) {
  return !v.gpus(k_vendor_nvidia).empty() || v.any_nvidia_node() || v.facts().wsl.dxg.value_or(false) ||
         f.driver.nvml.device_count.value_or(0) > 0 || cuda_saw_no_device(f);
}

// The GPU count from the environment (PCI, device nodes), else from NVML (nvidia-smi's table).
std::optional<int> gpu_count(const Facts& f, const EnvironmentView& v) {
  if (auto n = v.nvidia_gpu_count()) return n;
  if (f.driver.nvml.device_count) return *f.driver.nvml.device_count;
  return std::nullopt;
}

void check_cvd_hidden(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  auto value = v.env("CUDA_VISIBLE_DEVICES");
  if (!value || !has_cuda_capable(f, v)) return;
  auto list = parse_visible(*value, v.nvidia_gpu_count(), v.nvidia_gpu_uuids());
  if (!list.hidden_on_purpose) return;
  out.emit(fmt::format("CUDA_VISIBLE_DEVICES=\"{}\" hides every GPU from CUDA: frameworks fall back to the CPU.",
                       util::sanitize_utf8(*value)),
           {fmt::format("CUDA_VISIBLE_DEVICES=\"{}\"", util::sanitize_utf8(*value))});
}

void check_cvd_invalid(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  auto value = v.env("CUDA_VISIBLE_DEVICES");
  if (!value || !has_cuda_capable(f, v)) return;
  auto count = gpu_count(f, v);
  auto list = parse_visible(*value, count, v.nvidia_gpu_uuids());
  if (list.hidden_on_purpose) return;
  if (list.first_invalid.empty()) {
    // Every entry looks valid, yet CUDA counted no device: none of them exists on this machine (or
    // the machine has no GPU at all, which its other facts would show).
    if (!cuda_saw_no_device(f) || list.visible.empty()) return;
    out.emit(fmt::format("CUDA_VISIBLE_DEVICES=\"{}\" and CUDA found no device: the GPUs it names do not exist here (a "
                         "machine with one GPU has only index 0), so every GPU is hidden.",
                         util::sanitize_utf8(*value)),
             {fmt::format("CUDA_VISIBLE_DEVICES=\"{}\"", util::sanitize_utf8(*value)),
              "the CUDA runtime counted no device (cudaErrorNoDevice)"});
    return;
  }
  std::vector<std::string> evidence = {fmt::format("CUDA_VISIBLE_DEVICES=\"{}\"", util::sanitize_utf8(*value)),
                                       fmt::format("\"{}\": {}", list.first_invalid, list.why_invalid)};
  if (count) evidence.push_back(fmt::format("{} NVIDIA GPU(s) here", *count));
  if (list.visible.empty()) {
    out.emit(fmt::format("CUDA_VISIBLE_DEVICES names no GPU that exists (\"{}\"): CUDA sees no device.",
                         list.first_invalid),
             std::move(evidence));
  } else {
    auto& fd = out.emit(fmt::format("CUDA_VISIBLE_DEVICES stops at the invalid entry \"{}\": only {} visible.",
                                    list.first_invalid, util::join(list.visible, ",")),
                        std::move(evidence));
    fd.severity = Severity::warning;
  }
}

void check_stub_libcuda(const Facts& f, FindingSink& out) {
  const auto& libs = f.environment.libraries;
  EnvironmentView v(f.environment);
  std::vector<std::string> ld_path;
  if (auto p = v.env("LD_LIBRARY_PATH")) {
    for (auto d : util::split(*p, ':')) ld_path.emplace_back(util::trim(d));
  }
  for (const auto& lib : libs.libraries) {
    if (lib.kind != facts::DriverLibKind::libcuda || !lib.is_stub) continue;
    std::string dir(util::dir_name(lib.path));
    bool on_ld_path = false;
    for (auto d : ld_path) {
      while (d.size() > 1 && d.back() == '/') d.pop_back();
      on_ld_path = on_ld_path || d == dir;
    }
    if (!on_ld_path) continue;
    bool soname = util::base_name(lib.path) == "libcuda.so.1";
    auto& fd = out.emit(
        soname ? fmt::format("The CUDA toolkit's stub libcuda ({}) is on LD_LIBRARY_PATH as libcuda.so.1: every CUDA "
                             "program loads it instead of the driver and fails with CUDA_ERROR_STUB_LIBRARY (34).",
                             lib.path)
               : fmt::format("The CUDA toolkit's stub directory {} is on LD_LIBRARY_PATH: programs that load "
                             "\"libcuda.so\" get the stub and CUDA_ERROR_STUB_LIBRARY (34).",
                             dir),
        {fmt::format("LD_LIBRARY_PATH contains {}", dir), fmt::format("{} -> {}", lib.path, lib.resolved_path)});
    if (!soname) fd.severity = Severity::warning;
  }
}

bool env_matches(std::string_view match, std::string_view value) {
  std::string v(util::trim(value));
  for (auto& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (match == "set") return true;
  if (match == "truthy") return v == "1" || v == "true" || v == "yes" || v == "on";
  if (match.starts_with("equals:")) return v == match.substr(7);
  if (match.starts_with("prefix:")) return v.starts_with(match.substr(7));
  if (match == "no_gpu_platform") {
    if (v.empty()) return false;  // "" restores automatic choice
    for (auto p : {"cuda", "gpu", "rocm", "tpu"}) {
      if (util::contains(v, p)) return false;
    }
    return true;
  }
  return false;
}

void emit_env_table(const Facts& f, FindingSink& out, std::string_view kind) {
  EnvironmentView v(f.environment);
  const auto& t = data::table("env_vars.tsv");
  for (std::size_t r = 0; r < t.size(); ++r) {
    if (t.at(r, "kind") != kind) continue;
    auto value = v.env(t.at(r, "name"));
    if (!value || !env_matches(t.at(r, "match"), *value)) continue;
    out.emit(fmt::format("{}={}: {}.", t.at(r, "name"), util::sanitize_utf8(*value), t.at(r, "effect")),
             {fmt::format("{}=\"{}\" in the environment", t.at(r, "name"), util::sanitize_utf8(*value)),
              "source: " + t.at(r, "source")},
             fmt::format("Unset {} (or set it only for debugging).", t.at(r, "name")));
  }
}

void check_forced_cpu(const Facts& f, FindingSink& out) { emit_env_table(f, out, "forced_cpu"); }
void check_cuda_debug_vars(const Facts& f, FindingSink& out) { emit_env_table(f, out, "debug"); }

std::string gfx_name(std::uint32_t target) {
  // gfx_target_version 110000 -> gfx1100, 90010 -> gfx90a (major, minor and stepping in hex digits).
  return fmt::format("gfx{}{:x}{:x}", target / 10000, (target / 100) % 100, target % 100);
}

void check_amd_no_kfd(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  if (!v.nodes_known() || v.node("/dev/kfd")) return;
  for (const auto* d : v.gpus(k_vendor_amd)) {
    if (!d->driver || *d->driver != "amdgpu") continue;
    std::vector<std::string> evidence = {hex_driver(*d), "/dev/kfd does not exist"};
    std::string fix = "ROCm needs /dev/kfd: load amdgpu with KFD support (the distribution kernel has it; "
                      "install amdgpu-dkms for newer GPUs).";
    if (f.environment.container.in_container) {
      evidence.push_back(fmt::format("inside a {} container", f.environment.container.runtime));
      fix = "Start the container with --device /dev/kfd --device /dev/dri (and --group-add of the render group).";
    }
    auto& fd = out.emit(fmt::format("{} has no ROCm compute interface (/dev/kfd): ROCm builds of PyTorch and "
                                    "TensorFlow see no GPU.",
                                    v.describe(*d)),
                        std::move(evidence), fix);
    if (!f.environment.amd.rocm_version.known() && !f.environment.container.in_container) fd.severity = Severity::warning;
  }
}

void check_amd_render_access(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  if (v.gpus(k_vendor_amd).empty()) return;
  std::vector<std::string> evidence;
  std::set<std::string> groups;
  std::vector<const facts::DeviceNode*> nodes = v.nodes_with_prefix("/dev/dri/renderD");
  if (const auto* kfd = v.node("/dev/kfd")) nodes.insert(nodes.begin(), kfd);
  for (const auto* n : nodes) {
    if (v.can_open_rw(*n) != Access::no) continue;
    std::string group = v.group_name(n->gid);
    evidence.push_back(fmt::format("{} mode {:04o} owner {} group {} ", n->path, n->mode, n->uid,
                                   group.empty() ? std::to_string(n->gid) : group));
    if (!group.empty()) groups.insert(group);
  }
  if (evidence.empty()) return;
  std::string user = f.environment.identity.user_name.value_or("$USER");
  std::string group_list = groups.empty() ? "render,video" : util::join({groups.begin(), groups.end()}, ",");
  out.emit("This user cannot open the AMD GPU device nodes that ROCm needs.", std::move(evidence),
           fmt::format("sudo usermod -a -G {} {}, then log out and back in (containers: --group-add with the "
                       "group's numeric id).",
                       group_list, user));
}

void check_gfx_override(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  auto value = v.env("HSA_OVERRIDE_GFX_VERSION");
  if (!value) return;
  std::vector<std::string> evidence = {"HSA_OVERRIDE_GFX_VERSION=" + util::sanitize_utf8(*value)};
  for (const auto& n : f.environment.amd.kfd_gpus) {
    evidence.push_back(fmt::format("KFD node {} is {}", n.node, gfx_name(n.gfx_target_version)));
  }
  auto parts = util::parse_version(*value);
  bool valid = parts && parts->size() == 3;
  if (valid) {
    for (int p : *parts) valid = valid && p <= 15;
  }
  if (!valid) {
    auto& fd = out.emit("HSA_OVERRIDE_GFX_VERSION is not of the form major.minor.stepping (for example 10.3.0): "
                        "ROCm ignores it or refuses to start.",
                        std::move(evidence), "Set it as x.y.z, or unset it.");
    fd.severity = Severity::warning;
    return;
  }
  out.emit(fmt::format("HSA_OVERRIDE_GFX_VERSION={} makes ROCm treat the GPU as gfx{}{:x}{:x}: it lets an unsupported "
                       "GPU run, and is the first suspect when kernels crash or compute wrong results.",
                       *value, (*parts)[0], (*parts)[1], (*parts)[2]),
           std::move(evidence));
}

struct Accelerator {
  std::string_view name;
  std::string_view plugin;
};

void check_other_accelerators(const Facts& f, FindingSink& out) {
  EnvironmentView v(f.environment);
  std::vector<std::pair<Accelerator, std::string>> found;
  auto add = [&](Accelerator a, std::string ev) { found.emplace_back(a, std::move(ev)); };
  const Accelerator tpu{"Google TPU", "jax[tpu] or torch_xla"};
  for (const auto* n : v.nodes_with_prefix("/dev/accel")) {
    if (n->path.starts_with("/dev/accel/")) {
      if (v.module_loaded("habanalabs")) add({"Intel Gaudi", "habana_frameworks (Intel Gaudi software)"}, n->path);
      else add({"Intel NPU", "OpenVINO or intel-npu-acceleration-library"}, n->path);
    } else {
      add(tpu, n->path);
    }
  }
  if (auto n = v.nodes_with_prefix("/dev/neuron"); !n.empty()) {
    add({"AWS Neuron (Inferentia/Trainium)", "torch-neuronx or jax-neuronx"}, n.front()->path);
  }
  if (auto n = v.nodes_with_prefix("/dev/davinci"); !n.empty()) {
    add({"Huawei Ascend NPU", "torch_npu with the CANN toolkit"}, n.front()->path);
  }
  if (f.environment.pci.devices) {
    for (const auto& d : *f.environment.pci.devices) {
      if (d.vendor_id == k_vendor_google) add(tpu, fmt::format("PCI {} vendor 0x1ae0 (Google)", d.address));
    }
  }
  std::set<std::string_view> said;
  for (const auto& [a, ev] : found) {
    if (!said.insert(a.name).second) continue;
    std::vector<std::string> evidence;
    for (const auto& [b, e2] : found) {
      if (b.name == a.name) evidence.push_back(e2);
    }
    out.emit(fmt::format("A {} is present: CUDA builds cannot use it; it needs {}.", a.name, a.plugin),
             std::move(evidence), fmt::format("Install {} and select that device in the framework.", a.plugin));
  }
}

void check_unreadable(const Facts& f, FindingSink& out) {
  const auto& e = f.environment;
  std::vector<std::string> evidence;
  if (!e.pci.devices) evidence.push_back("PCI devices: " + e.pci.devices.why());
  if (!e.dev.nodes) evidence.push_back("/dev: " + e.dev.nodes.why());
  if (!e.kernel.modules) evidence.push_back("kernel modules: " + e.kernel.modules.why());
  if (!e.env) evidence.push_back("environment: " + e.env.why());
  if (!e.identity.uid) evidence.push_back("process identity: " + e.identity.uid.why());
  EnvironmentView v(e);
  for (auto vendor : {k_vendor_nvidia, k_vendor_amd}) {
    for (const auto* d : v.gpus(vendor)) {
      if (!d->driver) evidence.push_back(fmt::format("driver of {}: {}", v.describe(*d), d->driver.why()));
    }
  }
  if (evidence.empty()) return;
  out.emit("Some facts could not be read, so the checks that need them could not decide (this is not a clean bill "
           "of health).",
           std::move(evidence));
}

constexpr std::string_view k_container_fix =
    "Start the container with the GPU: `docker run --gpus all ...` (needs nvidia-container-toolkit on the host), "
    "`podman run --device nvidia.com/gpu=all ...` (CDI: `sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`), "
    "in Kubernetes `resources: limits: nvidia.com/gpu: 1` with the NVIDIA device plugin; or, with Singularity or Apptainer, "
    "`singularity exec --nv ...`.";

const Check k_checks[] = {
    {{"probe.unreadable", Layer::environment, Severity::warning, "Facts that gpudoctor could not read",
      "/sys/bus/pci/devices, /dev, /proc/modules, /proc/self/environ, /proc/self/status or a GPU's driver link "
      "could not be read",
      "Run gpudoctor where it can read these files (not in a sandbox that hides /sys or /proc)."},
     check_unreadable},
    {{"hw.no_gpu", Layer::environment, Severity::info, "No GPU or accelerator at all",
      "no NVIDIA/AMD/Intel display or 3D controller on the PCI bus and no GPU or accelerator device node",
      "Nothing to fix in software: use a machine with a GPU."},
     check_no_gpu},
    {{"hw.no_compute_gpu", Layer::environment, Severity::info, "Only an Intel GPU, which CUDA and ROCm cannot use",
      "Intel display controllers only, no NVIDIA/AMD GPU or accelerator; explain: a post that names only an Intel GPU "
      "(Iris, UHD, Xe) and says the GPU was not found or used",
      "Use PyTorch's XPU build (intel-extension-for-pytorch / torch xpu wheels) or OpenVINO, or a machine with an "
      "NVIDIA or AMD GPU."},
     check_no_compute_gpu},
    {{"hw.gpu_no_driver", Layer::environment, Severity::error, "A GPU with no kernel driver bound",
      "an NVIDIA or AMD GPU's /sys/bus/pci/devices/BUS/driver link is absent",
      "Install and load the GPU's driver, then reboot."},
     check_gpu_no_driver},
    {{"hw.nouveau_bound", Layer::environment, Severity::error, "NVIDIA GPU driven by nouveau",
      "an NVIDIA GPU's driver link points to nouveau (DCGM's deny-list check)",
      "Install the NVIDIA driver, blacklist nouveau in /etc/modprobe.d, rebuild the initramfs, reboot."},
     check_nouveau_bound},
    {{"hw.vfio_bound", Layer::environment, Severity::error, "GPU bound to vfio-pci (passed to a VM)",
      "a GPU's driver link points to vfio-pci (warning when other GPUs are usable)",
      "Use the GPU inside the VM it is passed to, or unbind it from vfio-pci (remove it from vfio-pci.ids= / "
      "driverctl) and bind the GPU driver."},
     check_vfio_bound},
    {{"hw.pcie_width_degraded", Layer::environment, Severity::warning, "GPU PCIe link narrower than it can be",
      "current_link_width < max_link_width for a GPU",
      "Reseat the GPU in a x16 slot, check riser cables and the BIOS lane split."},
     check_pcie_width},
    {{"container.no_gpu", Layer::environment, Severity::error, "Container started without the GPU",
      "inside a container, no /dev/nvidia* and no driver libraries, while the host GPU is visible in /sys or "
      "NVIDIA_VISIBLE_DEVICES asks for one; or (explain) the docker/podman run command, compose file or Kubernetes "
      "manifest shown asks for no GPU, or passes /dev/nvidia* with --device and nothing that brings the driver's "
      "libraries (no --gpus, --runtime=nvidia or mount of them), or a post about a container shows no GPU inside it "
      "(nvidia-smi not found, "
      "`Devices: []`, vLLM's \"Failed to infer device type\", libcuda.so.1 missing when the text is not about "
      "driver capabilities), or states only that the GPU is not used there",
      k_container_fix},
     check_container_no_gpu},
    {{"container.visible_devices_void", Layer::environment, Severity::error,
      "NVIDIA_VISIBLE_DEVICES is void, none or empty", "inside a container, NVIDIA_VISIBLE_DEVICES is \"void\", \"none\" or \"\"",
      "Set NVIDIA_VISIBLE_DEVICES=all (or the GPU indices/UUIDs), or use docker --gpus all."},
     check_visible_devices_void},
    {{"container.no_compute_capability", Layer::environment, Severity::error,
      "Container lacks the `compute` driver capability",
      "NVIDIA_DRIVER_CAPABILITIES lists capabilities without compute/all, or libnvidia-ml and /dev/nvidiaN are "
      "injected but libcuda.so.1 is not",
      "Set NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all); in compose, capabilities: [gpu, compute, utility]."},
     check_no_compute_capability},
    {{"wsl.no_gpu_support", Layer::environment, Severity::error, "WSL without GPU paravirtualisation",
      "the kernel is WSL's and /dev/dxg does not exist (or it is WSL 1), the Windows build is older than 19044, or the "
      "WSL 2 kernel is older than 5.10.43.3; in pasted text, also nvidia-container-cli's \"dxcore initialization "
      "failed\" in a post about WSL, and lspci's \"Cannot open /proc/bus/pci\" on Windows (WSL 1)",
      "Use WSL 2 on Windows 10 21H2+/11 with a current NVIDIA Windows driver; run `wsl --update` and restart WSL."},
     check_wsl_no_gpu},
    {{"wsl.linux_driver_installed", Layer::environment, Severity::error, "Linux NVIDIA driver installed inside WSL",
      "under WSL, a libcuda.so or libnvidia-ml.so outside /usr/lib/wsl, or nvmlInit failing with Driver Not Loaded (9)",
      "Remove the Linux driver inside WSL (`sudo apt remove --purge '^nvidia-.*' '^libnvidia-.*'`); WSL uses the "
      "Windows driver through /usr/lib/wsl/lib."},
     check_wsl_linux_driver},
    {{"env.cuda_visible_devices_hidden", Layer::environment, Severity::error, "CUDA_VISIBLE_DEVICES hides every GPU",
      "CUDA_VISIBLE_DEVICES is empty, starts with -1, or is NoDevFiles/none",
      "Unset CUDA_VISIBLE_DEVICES, or set it to the GPU indices or UUIDs to use (e.g. 0 or 0,1)."},
     check_cvd_hidden},
    {{"env.cuda_visible_devices_invalid", Layer::environment, Severity::error,
      "CUDA_VISIBLE_DEVICES names a GPU that does not exist",
      "an index past the GPU count, a UUID no GPU has, or a malformed entry (warning when GPUs before it stay visible); "
      "or entries that look valid while the CUDA runtime counted no device",
      "Use indices below the GPU count (nvidia-smi -L lists them) or full UUIDs; set CUDA_DEVICE_ORDER=PCI_BUS_ID so "
      "indices match nvidia-smi."},
     check_cvd_invalid},
    {{"env.stub_libcuda_on_path", Layer::environment, Severity::error, "The toolkit's stub libcuda is on LD_LIBRARY_PATH",
      "an LD_LIBRARY_PATH directory is a CUDA toolkit stubs/ directory holding libcuda.so (error when it provides "
      "libcuda.so.1)",
      "Remove the .../stubs directory from LD_LIBRARY_PATH: the stub is for linking only (put it in LIBRARY_PATH or "
      "-L at build time)."},
     check_stub_libcuda},
    {{"env.framework_forced_cpu", Layer::environment, Severity::warning, "An environment variable forces the CPU",
      "JAX_PLATFORMS without a GPU platform, JAX_PLATFORM_NAME=cpu, ACCELERATE_USE_CPU=true, OLLAMA_LLM_LIBRARY=cpu* "
      "(data/env_vars.tsv)",
      "Unset the variable."},
     check_forced_cpu},
    {{"env.cuda_debug_vars", Layer::environment, Severity::warning, "A CUDA debugging variable slows every kernel",
      "CUDA_LAUNCH_BLOCKING=1 or one of the variables DCGM flags as performance-limiting (data/env_vars.tsv)",
      "Unset the variable outside debugging sessions."},
     check_cuda_debug_vars},
    {{"amd.no_kfd", Layer::environment, Severity::error, "AMD GPU without /dev/kfd",
      "an AMD GPU bound to amdgpu and no /dev/kfd (warning when ROCm is not installed)",
      "Load amdgpu with KFD; in containers pass --device /dev/kfd --device /dev/dri."},
     check_amd_no_kfd},
    {{"amd.no_render_access", Layer::environment, Severity::error, "AMD GPU nodes not openable by this user",
      "/dev/kfd or /dev/dri/renderD* exist but this uid and its groups lack read-write permission",
      "Add the user to the render and video groups and log in again."},
     check_amd_render_access},
    {{"amd.gfx_override", Layer::environment, Severity::info, "HSA_OVERRIDE_GFX_VERSION is set",
      "HSA_OVERRIDE_GFX_VERSION is in the environment (warning when malformed)",
      "Keep it only for GPUs ROCm does not support officially, and unset it when debugging crashes."},
     check_gfx_override},
    {{"accel.other_present", Layer::environment, Severity::info, "A non-GPU accelerator is present",
      "/dev/accel*, /dev/accel/accel*, /dev/neuron*, /dev/davinci* or a Google PCI function",
      "Install the framework plugin for that accelerator."},
     check_other_accelerators},
};

}  // namespace

std::span<const Check> environment_checks() { return k_checks; }

}  // namespace gpudoctor::checks
