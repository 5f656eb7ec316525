// EnvironmentView: derived, read-only answers over EnvironmentFacts that several checks need
// ("which PCI functions are NVIDIA GPUs", "is module X loaded", "can this uid open node N").
// Pure: computed from the facts only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <facts/facts.hpp>

namespace gpudoctor::checks {

inline constexpr std::uint32_t k_vendor_nvidia = 0x10de;
inline constexpr std::uint32_t k_vendor_amd = 0x1002;
inline constexpr std::uint32_t k_vendor_intel = 0x8086;
inline constexpr std::uint32_t k_vendor_google = 0x1ae0;
inline constexpr std::uint32_t k_vendor_habana = 0x1da3;

enum class Access { yes, no, unknown };

class EnvironmentView {
 public:
  explicit EnvironmentView(const facts::EnvironmentFacts& f) : m_f(f) {}

  const facts::EnvironmentFacts& facts() const { return m_f; }

  // Display/3D-class functions of a vendor (NVIDIA audio and USB functions excluded).
  std::vector<const facts::PciDevice*> gpus(std::uint32_t vendor) const;
  bool pci_known() const { return m_f.pci.devices.known(); }

  bool modules_known() const { return m_f.kernel.modules.known(); }
  bool module_loaded(std::string_view name) const;
  // The loaded nvidia module's version: /proc/driver/nvidia/version, else /sys/module/nvidia/version.
  std::string nvidia_module_version() const;

  bool nodes_known() const { return m_f.dev.nodes.known(); }
  const facts::DeviceNode* node(std::string_view path) const;
  std::vector<const facts::DeviceNode*> nodes_with_prefix(std::string_view prefix) const;
  // /dev/nvidia0, /dev/nvidia1, ... (not nvidiactl, nvidia-uvm, nvidia-modeset).
  std::vector<const facts::DeviceNode*> nvidia_gpu_nodes() const;
  bool any_nvidia_node() const;

  // Read and write permission for this process's effective uid and groups (root may do anything).
  Access can_open_rw(const facts::DeviceNode& node) const;
  // The group name owning the node, when /etc/group knows it.
  std::string group_name(std::uint32_t gid) const;

  std::optional<std::string> env(std::string_view name) const;

  // Driver libraries that belong to an installed driver (not toolkit stubs, not WSL's, not the
  // forward-compatibility package).
  std::vector<const facts::DriverLibrary*> driver_libraries(facts::DriverLibKind kind) const;
  bool has_driver_libraries() const;

  // How many NVIDIA GPUs CUDA could enumerate here, when that can be told: in a container the
  // injected /dev/nvidiaN nodes, else the driver's /proc list, else the PCI functions.
  std::optional<int> nvidia_gpu_count() const;
  std::vector<std::string> nvidia_gpu_uuids() const;

  std::string describe(const facts::PciDevice& d) const;

 private:
  const facts::EnvironmentFacts& m_f;
};

// "NVIDIA GeForce RTX 4090" from pci.ids, or "PCI 10de:2684" when unnamed.
std::string pci_device_name(const facts::PciDevice& d);

}  // namespace gpudoctor::checks
