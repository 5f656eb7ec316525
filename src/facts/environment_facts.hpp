// The facts of the environment layer: what the PCI bus, the kernel, /dev, the container runtime and
// the environment variables say about GPUs, read by src/probe/ and judged by src/checks/.
// Plain data; JSON round trip in environment_facts.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <facts/known.hpp>

namespace gpudoctor::facts {

// A PCI function that is a display controller, a 3D controller, a processing accelerator, or is
// made by a GPU/accelerator vendor. Other functions are counted, not listed.
struct PciDevice {
  std::string address;  // "0000:01:00.0"
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t subsystem_vendor_id = 0;
  std::uint32_t subsystem_device_id = 0;
  std::uint32_t class_code = 0;  // 0x030000 VGA, 0x030200 3D, 0x120000 accelerator
  std::string vendor_name;       // from pci.ids; "" when not listed
  std::string device_name;
  Known<std::string> driver;  // bound kernel driver; "" when none is bound
  Known<std::string> current_link_speed;  // "16.0 GT/s PCIe"
  Known<std::string> max_link_speed;
  Known<int> current_link_width;
  Known<int> max_link_width;
  Known<int> numa_node;
  bool operator==(const PciDevice&) const = default;
};

struct PciFacts {
  Known<int> function_count;  // every PCI function, listed or not
  Known<std::vector<PciDevice>> devices;
  bool operator==(const PciFacts&) const = default;
};

struct KernelModule {
  std::string name;
  std::string state;        // "Live", "Loading", "Unloading"
  Known<std::string> version;  // /sys/module/NAME/version (out-of-tree modules only)
  bool operator==(const KernelModule&) const = default;
};

enum class NvidiaModuleFlavor { unknown, proprietary, open };

// /proc/driver/nvidia/gpus/BUS/information.
struct NvidiaProcGpu {
  std::string bus_location;
  std::string model;
  std::string uuid;
  Known<int> device_minor;
  bool excluded = false;
  bool operator==(const NvidiaProcGpu&) const = default;
};

enum class SecureBoot { unknown, enabled, disabled, not_efi };

struct KernelFacts {
  Known<std::string> release;          // /proc/sys/kernel/osrelease
  Known<std::string> proc_version;     // /proc/version
  Known<std::string> cmdline;          // /proc/cmdline
  Known<std::vector<KernelModule>> modules;  // GPU-relevant modules from /proc/modules
  Known<std::string> nvidia_version_banner;  // first line of /proc/driver/nvidia/version
  std::string nvidia_version;                // "550.54.14", "" when not found
  NvidiaModuleFlavor nvidia_flavor = NvidiaModuleFlavor::unknown;
  Known<std::vector<NvidiaProcGpu>> nvidia_gpus;
  Known<bool> nvidia_module_built;   // an nvidia.ko is listed in /lib/modules/RELEASE/modules.dep
  SecureBoot secure_boot = SecureBoot::unknown;
  std::vector<std::string> nouveau_blacklist;  // "FILE: line" of each blacklist/modeset=0 entry
  bool operator==(const KernelFacts&) const = default;
};

enum class NodeType { char_device, block_device, regular, directory, other };

struct DeviceNode {
  std::string path;
  NodeType type = NodeType::other;
  std::uint32_t mode = 0;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  bool operator==(const DeviceNode&) const = default;
};

struct DevFacts {
  // The GPU and accelerator nodes under /dev (nvidia*, nvidia-caps/*, kfd, dri/*, dxg, accel*,
  // neuron*, davinci*, vfio/*).
  Known<std::vector<DeviceNode>> nodes;
  bool operator==(const DevFacts&) const = default;
};

// Who this process is: from /proc/self/status, and the group names from /etc/group that matter.
struct IdentityFacts {
  Known<std::uint32_t> uid;  // effective
  Known<std::uint32_t> gid;  // effective
  std::vector<std::uint32_t> groups;  // supplementary
  std::map<std::string, std::uint32_t> group_ids;  // "render" -> 109, for groups named by checks
  Known<std::string> user_name;
  bool operator==(const IdentityFacts&) const = default;
};

struct ContainerFacts {
  bool dockerenv = false;     // /.dockerenv
  bool containerenv = false;  // /run/.containerenv (podman)
  bool kubernetes = false;    // KUBERNETES_SERVICE_HOST or a kubepods cgroup
  std::string cgroup_hint;    // "docker", "kubepods", "containerd", "libpod", "lxc", or ""
  Known<std::string> root_fs_type;  // from /proc/self/mountinfo: "overlay", "ext4", ...
  // The command that started the container ("docker run -it image sh"), when a described machine's
  // text shows it; a live container cannot see it (unknown).
  Known<std::string> launch_command = Known<std::string>::unknown("not probed");
  std::string runtime;        // best guess: docker, podman, kubernetes, containerd, lxc, ""
  bool in_container = false;
  bool operator==(const ContainerFacts&) const = default;
};

struct WslFacts {
  bool is_wsl = false;   // the kernel says "microsoft"
  bool is_wsl2 = false;
  Known<bool> dxg;       // /dev/dxg
  // The Windows build WSL runs on (10.0.BUILD): a described machine's `ver` or OS line; no live
  // probe reads it.
  Known<int> windows_build;
  bool wsl_lib_dir = false;  // /usr/lib/wsl/lib
  bool operator==(const WslFacts&) const = default;
};

enum class DriverLibKind { libcuda, libnvidia_ml };

// A user-space driver library found on disk (libcuda.so*, libnvidia-ml.so*).
struct DriverLibrary {
  std::string path;           // as found
  DriverLibKind kind = DriverLibKind::libcuda;
  std::string resolved_path;  // after symlinks
  std::string version;        // from the (resolved) file name: "550.54.14"; "" when none
  bool is_stub = false;       // a CUDA toolkit stub (under a stubs/ directory)
  bool in_wsl_dir = false;    // under /usr/lib/wsl
  Known<std::uint64_t> size;
  bool operator==(const DriverLibrary&) const = default;
};

struct LibraryFacts {
  std::vector<std::string> searched_dirs;
  std::vector<DriverLibrary> libraries;
  bool nvidia_modprobe_setuid = false;  // /usr/bin/nvidia-modprobe exists and is setuid root
  // The CUDA toolkit installed system-wide, major.minor ("10.2"): `nvcc --version`, version.txt, or
  // what a post states; frameworks that dlopen CUDA by soname (TensorFlow) need its version.
  Known<std::string> cuda_toolkit_version;
  bool operator==(const LibraryFacts&) const = default;
};

struct KfdNode {
  int node = 0;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t gfx_target_version = 0;  // 110000 -> gfx1100
  bool operator==(const KfdNode&) const = default;
};

struct AmdFacts {
  Known<std::string> rocm_version;     // /opt/rocm/.info/version
  Known<std::string> amdgpu_initstate; // /sys/module/amdgpu/initstate
  std::vector<KfdNode> kfd_gpus;       // GPU nodes of the KFD topology (simd_count > 0)
  bool operator==(const AmdFacts&) const = default;
};

struct EnvironmentFacts {
  PciFacts pci;
  KernelFacts kernel;
  DevFacts dev;
  IdentityFacts identity;
  ContainerFacts container;
  WslFacts wsl;
  LibraryFacts libraries;
  AmdFacts amd;
  // The GPU-relevant variables of the process environment (the allowlist in env_probe.cpp).
  Known<std::map<std::string, std::string>> env;
  bool operator==(const EnvironmentFacts&) const = default;
};

void to_json(nlohmann::json& j, const EnvironmentFacts& f);
void from_json(const nlohmann::json& j, EnvironmentFacts& f);

}  // namespace gpudoctor::facts
