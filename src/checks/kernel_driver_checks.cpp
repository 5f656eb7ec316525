// Checks of the NVIDIA kernel driver as the file system shows it: module loaded, versions of the
// module and the user-space libraries agreeing, nvidia_uvm and the device nodes CUDA opens, and
// whether this uid may open them. NVML/CUDA-answer checks live in the driver-layer files.
#include <checks/check.hpp>
#include <checks/environment_view.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <set>

namespace gpudoctor::checks {
namespace {

bool nvidia_gpu_possible(const EnvironmentView& v) {
  return !v.pci_known() || !v.gpus(k_vendor_nvidia).empty();
}

void check_module_not_loaded(const Facts& f, FindingSink& out) {
  const auto& e = f.environment;
  EnvironmentView v(e);
  if (e.wsl.is_wsl || !v.modules_known() || v.module_loaded("nvidia")) return;
  if (!v.has_driver_libraries() || !nvidia_gpu_possible(v)) return;
  std::vector<std::string> evidence = {"no `nvidia` line in /proc/modules"};
  for (auto kind : {facts::DriverLibKind::libnvidia_ml, facts::DriverLibKind::libcuda}) {
    for (const auto* lib : v.driver_libraries(kind)) {
      evidence.push_back(fmt::format("user-space driver installed: {}{}", lib->path,
                                     lib->version.empty() ? "" : " (" + lib->version + ")"));
      break;
    }
  }
  std::string fix;
  const auto& built = e.kernel.nvidia_module_built;
  if (built && !*built) {
    evidence.push_back(fmt::format("no nvidia.ko in /lib/modules/{}/modules.dep", e.kernel.release.value_or("?")));
    fix = fmt::format("The driver was not built for the running kernel {}: install its headers and rebuild "
                      "(`sudo apt install linux-headers-{} && sudo dkms autoinstall`), or boot the kernel the driver "
                      "was built for.",
                      e.kernel.release.value_or("?"), e.kernel.release.value_or("$(uname -r)"));
  } else if (e.kernel.secure_boot == facts::SecureBoot::enabled) {
    evidence.push_back("Secure Boot is enabled (efivars SecureBoot = 1)");
    fix = "Secure Boot rejects an unsigned module (\"Key was rejected by service\"): enroll the driver's signing key "
          "(`sudo mokutil --import /var/lib/dkms/mok.pub`, then reboot and confirm in the MOK manager) or disable "
          "Secure Boot.";
  } else {
    fix = "Load it: `sudo modprobe nvidia`; if that fails, `sudo dmesg | grep -i nvrm` says why.";
  }
  if (e.container.in_container) {
    evidence.push_back("inside a container: modules are the host's");
    fix = "On the host: " + fix;
  }
  out.emit("NVIDIA user-space libraries are installed, but the nvidia kernel module is not loaded.", std::move(evidence),
           fix);
}

void check_version_mismatch(const Facts& f, FindingSink& out) {
  const auto& e = f.environment;
  EnvironmentView v(e);
  if (!v.module_loaded("nvidia")) return;
  std::string kernel = v.nvidia_module_version();
  if (kernel.empty()) return;
  std::vector<std::string> mismatched;
  for (auto kind : {facts::DriverLibKind::libnvidia_ml, facts::DriverLibKind::libcuda}) {
    for (const auto* lib : v.driver_libraries(kind)) {
      if (!lib->version.empty() && lib->version != kernel) {
        mismatched.push_back(fmt::format("{} -> {} ({})", lib->path, lib->resolved_path, lib->version));
      }
    }
  }
  if (mismatched.empty()) return;
  std::vector<std::string> evidence = {
      fmt::format("kernel module: {} ({})", kernel,
                  e.kernel.nvidia_version_banner ? "/proc/driver/nvidia/version" : "/sys/module/nvidia/version")};
  evidence.insert(evidence.end(), mismatched.begin(), mismatched.end());
  out.emit(fmt::format("The loaded kernel module is driver {} but the user-space libraries are another version: "
                       "NVML fails with \"Driver/library version mismatch\" and CUDA cannot start.",
                       kernel),
           std::move(evidence));
}

bool modprobe_helps(const facts::EnvironmentFacts& e) {
  // nvidia-modprobe (setuid root) loads nvidia_uvm and creates the nodes when libcuda first asks;
  // it cannot do that inside a container.
  return e.libraries.nvidia_modprobe_setuid && !e.container.in_container;
}

void check_uvm_missing(const Facts& f, FindingSink& out) {
  const auto& e = f.environment;
  EnvironmentView v(e);
  if (!v.module_loaded("nvidia") || !v.nodes_known()) return;
  // A container with no NVIDIA node at all was started without the GPU: container.no_gpu says so.
  if (e.container.in_container && !v.any_nvidia_node()) return;
  bool uvm_module = v.module_loaded("nvidia_uvm");
  bool uvm_node = v.node("/dev/nvidia-uvm") != nullptr;
  if (uvm_node && (uvm_module || e.container.in_container)) return;
  if (uvm_module && uvm_node) return;
  std::vector<std::string> evidence;
  if (!uvm_module) evidence.push_back("nvidia is loaded, nvidia_uvm is not (/proc/modules)");
  if (!uvm_node) evidence.push_back("/dev/nvidia-uvm does not exist");
  std::string fix = e.container.in_container
                        ? "On the host: `sudo modprobe nvidia_uvm && sudo nvidia-modprobe -u -c=0`, then restart the "
                          "container so /dev/nvidia-uvm is passed in."
                        : "`sudo modprobe nvidia_uvm` (after suspend/resume: `sudo rmmod nvidia_uvm && sudo modprobe "
                          "nvidia_uvm`); add nvidia_uvm to /etc/modules-load.d/ to load it at boot.";
  auto& fd = out.emit("CUDA's unified-memory module is missing: nvidia-smi works, but CUDA initialisation fails with "
                      "error 999 (CUDA_ERROR_UNKNOWN).",
                      std::move(evidence), fix);
  if (modprobe_helps(e)) {
    fd.severity = Severity::warning;
    fd.evidence.push_back("/usr/bin/nvidia-modprobe is setuid root and normally loads it on first CUDA use");
  }
}

void check_device_nodes_missing(const Facts& f, FindingSink& out) {
  const auto& e = f.environment;
  EnvironmentView v(e);
  if (e.container.in_container || !v.module_loaded("nvidia") || !v.nodes_known()) return;
  std::vector<std::string> evidence;
  if (!v.node("/dev/nvidiactl")) evidence.push_back("/dev/nvidiactl does not exist");
  std::size_t nodes = v.nvidia_gpu_nodes().size();
  std::size_t bound = 0;
  for (const auto* d : v.gpus(k_vendor_nvidia)) bound += d->driver && *d->driver == "nvidia" ? 1 : 0;
  if (nodes < bound) evidence.push_back(fmt::format("{} /dev/nvidiaN node(s) for {} GPU(s) bound to nvidia", nodes, bound));
  if (evidence.empty()) return;
  auto& fd = out.emit("The nvidia module is loaded but its device nodes are missing: CUDA and NVML cannot open the GPU.",
                      std::move(evidence));
  if (modprobe_helps(e)) {
    fd.severity = Severity::warning;
    fd.evidence.push_back("/usr/bin/nvidia-modprobe is setuid root and normally creates them on first use");
  }
}

void check_device_permission(const Facts& f, FindingSink& out) {
  const auto& e = f.environment;
  EnvironmentView v(e);
  std::vector<std::string> evidence;
  std::set<std::string> groups;
  for (const auto* n : v.nodes_with_prefix("/dev/nvidia")) {
    if (n->path.starts_with("/dev/nvidia-caps")) continue;
    if (v.can_open_rw(*n) != Access::no) continue;
    std::string group = v.group_name(n->gid);
    evidence.push_back(fmt::format("{} mode {:04o} owner {} group {}", n->path, n->mode, n->uid,
                                   group.empty() ? std::to_string(n->gid) : group));
    if (!group.empty() && ((n->mode >> 3) & 6) == 6) groups.insert(group);
  }
  if (evidence.empty()) return;
  evidence.push_back(fmt::format("this process: uid {}, gid {}, groups {}", e.identity.uid.value_or(0),
                                 e.identity.gid.value_or(0), [&] {
                                   std::vector<std::string> g;
                                   for (auto id : e.identity.groups) g.push_back(std::to_string(id));
                                   return g.empty() ? std::string("(none)") : util::join(g, ",");
                                 }()));
  std::string fix = groups.empty()
                        ? "Make the nodes world read-write as the driver installs them (NVreg_DeviceFileMode=0666 in "
                          "/etc/modprobe.d/nvidia.conf, or a udev rule), then reload the module."
                        : fmt::format("sudo usermod -a -G {} {}, then log out and back in.",
                                      util::join({groups.begin(), groups.end()}, ","),
                                      e.identity.user_name.value_or("$USER"));
  out.emit("This user cannot open the NVIDIA device nodes: CUDA reports no device, NVML \"Insufficient Permissions\".",
           std::move(evidence), fix);
}

void check_gpu_excluded(const Facts& f, FindingSink& out) {
  const auto& gpus = f.environment.kernel.nvidia_gpus;
  if (!gpus) return;
  for (const auto& g : *gpus) {
    if (!g.excluded) continue;
    out.emit(fmt::format("The NVIDIA driver excluded GPU {} ({}): no program can use it.", g.bus_location, g.model),
             {fmt::format("/proc/driver/nvidia/gpus/{}/information: GPU Excluded: Yes", g.bus_location)});
  }
}

const Check k_checks[] = {
    {{"driver.module_not_loaded", Layer::driver, Severity::error,
      "NVIDIA libraries installed, kernel module not loaded",
      "libnvidia-ml.so/libcuda.so of a driver are on disk, no `nvidia` in /proc/modules (not under WSL)",
      "Load the module (`sudo modprobe nvidia`); rebuild it for the running kernel or sign it for Secure Boot when "
      "that fails."},
     check_module_not_loaded},
    {{"driver.version_mismatch", Layer::driver, Severity::error,
      "Kernel module and user-space driver versions differ",
      "the version in /proc/driver/nvidia/version (or /sys/module/nvidia/version) differs from the version in the "
      "file name of libnvidia-ml.so/libcuda.so",
      "Reboot (the usual cause is a driver upgrade without one), or unload and reload the modules: `sudo rmmod "
      "nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia`."},
     check_version_mismatch},
    {{"driver.uvm_missing", Layer::driver, Severity::error, "nvidia_uvm not loaded or /dev/nvidia-uvm missing",
      "nvidia is loaded but nvidia_uvm is not, or /dev/nvidia-uvm does not exist (warning when a setuid "
      "nvidia-modprobe can fix it on demand)",
      "`sudo modprobe nvidia_uvm` (and `sudo nvidia-modprobe -u -c=0` to create the node)."},
     check_uvm_missing},
    {{"driver.device_nodes_missing", Layer::driver, Severity::error, "nvidia loaded but /dev/nvidia* missing",
      "outside a container: the nvidia module is loaded, and /dev/nvidiactl is missing or there are fewer "
      "/dev/nvidiaN than GPUs bound to nvidia",
      "`sudo nvidia-modprobe -c=0` for each GPU index (or install nvidia-modprobe / the udev rules of the driver "
      "package)."},
     check_device_nodes_missing},
    {{"driver.device_permission", Layer::driver, Severity::error, "NVIDIA device nodes not openable by this user",
      "a /dev/nvidia* node exists but this uid and its groups lack read-write permission",
      "Add the user to the node's group, or restore the default 0666 mode."},
     check_device_permission},
    {{"driver.gpu_excluded", Layer::driver, Severity::error, "GPU excluded by the driver",
      "/proc/driver/nvidia/gpus/BUS/information says GPU Excluded: Yes",
      "Remove the GPU from NVreg_ExcludedGpus, or reset it (`nvidia-smi -r -i N`); excluded after an error, it "
      "needs a node reboot."},
     check_gpu_excluded},
};

}  // namespace

std::span<const Check> kernel_driver_checks() { return k_checks; }

}  // namespace gpudoctor::checks
