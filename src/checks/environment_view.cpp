#include <checks/environment_view.hpp>

#include <fmt/format.h>

#include <util/path.hpp>
#include <util/text.hpp>

namespace gpudoctor::checks {

std::vector<const facts::PciDevice*> EnvironmentView::gpus(std::uint32_t vendor) const {
  std::vector<const facts::PciDevice*> out;
  if (!m_f.pci.devices) return out;
  for (const auto& d : *m_f.pci.devices) {
    if (d.vendor_id == vendor && (d.class_code >> 16) == 0x03) out.push_back(&d);
  }
  return out;
}

bool EnvironmentView::module_loaded(std::string_view name) const {
  if (!m_f.kernel.modules) return false;
  for (const auto& m : *m_f.kernel.modules) {
    if (m.name == name) return true;
  }
  return false;
}

std::string EnvironmentView::nvidia_module_version() const {
  if (!m_f.kernel.nvidia_version.empty()) return m_f.kernel.nvidia_version;
  if (m_f.kernel.modules) {
    for (const auto& m : *m_f.kernel.modules) {
      if (m.name == "nvidia" && m.version) return *m.version;
    }
  }
  return {};
}

const facts::DeviceNode* EnvironmentView::node(std::string_view path) const {
  if (!m_f.dev.nodes) return nullptr;
  for (const auto& n : *m_f.dev.nodes) {
    if (n.path == path) return &n;
  }
  return nullptr;
}

std::vector<const facts::DeviceNode*> EnvironmentView::nodes_with_prefix(std::string_view prefix) const {
  std::vector<const facts::DeviceNode*> out;
  if (!m_f.dev.nodes) return out;
  for (const auto& n : *m_f.dev.nodes) {
    if (n.path.starts_with(prefix)) out.push_back(&n);
  }
  return out;
}

std::vector<const facts::DeviceNode*> EnvironmentView::nvidia_gpu_nodes() const {
  std::vector<const facts::DeviceNode*> out;
  for (const auto* n : nodes_with_prefix("/dev/nvidia")) {
    auto rest = std::string_view(n->path).substr(11);
    if (!rest.empty() && util::parse_uint(rest)) out.push_back(n);
  }
  return out;
}

bool EnvironmentView::any_nvidia_node() const { return !nodes_with_prefix("/dev/nvidia").empty(); }

Access EnvironmentView::can_open_rw(const facts::DeviceNode& node) const {
  const auto& id = m_f.identity;
  if (!id.uid) return Access::unknown;
  if (*id.uid == 0) return Access::yes;
  std::uint32_t bits;
  if (node.uid == *id.uid) {
    bits = (node.mode >> 6) & 7;
  } else {
    bool in_group = id.gid && *id.gid == node.gid;
    for (auto g : id.groups) in_group = in_group || g == node.gid;
    bits = in_group ? (node.mode >> 3) & 7 : node.mode & 7;
  }
  return (bits & 6) == 6 ? Access::yes : Access::no;
}

std::string EnvironmentView::group_name(std::uint32_t gid) const {
  for (const auto& [name, id] : m_f.identity.group_ids) {
    if (id == gid) return name;
  }
  return {};
}

std::optional<std::string> EnvironmentView::env(std::string_view name) const {
  if (!m_f.env) return std::nullopt;
  auto it = m_f.env->find(std::string(name));
  if (it == m_f.env->end()) return std::nullopt;
  return it->second;
}

std::vector<const facts::DriverLibrary*> EnvironmentView::driver_libraries(facts::DriverLibKind kind) const {
  std::vector<const facts::DriverLibrary*> out;
  for (const auto& lib : m_f.libraries.libraries) {
    if (lib.kind != kind || lib.is_stub || lib.in_wsl_dir) continue;
    if (util::contains(lib.resolved_path, "/compat/") || util::contains(lib.path, "/compat/")) continue;
    out.push_back(&lib);
  }
  return out;
}

bool EnvironmentView::has_driver_libraries() const {
  return !driver_libraries(facts::DriverLibKind::libcuda).empty() ||
         !driver_libraries(facts::DriverLibKind::libnvidia_ml).empty();
}

std::optional<int> EnvironmentView::nvidia_gpu_count() const {
  if (m_f.container.in_container) {
    if (!nodes_known()) return std::nullopt;
    return static_cast<int>(nvidia_gpu_nodes().size());
  }
  if (m_f.kernel.nvidia_gpus) {
    int n = 0;
    for (const auto& g : *m_f.kernel.nvidia_gpus) n += g.excluded ? 0 : 1;
    return n;
  }
  if (!pci_known()) return std::nullopt;
  return static_cast<int>(gpus(k_vendor_nvidia).size());
}

std::vector<std::string> EnvironmentView::nvidia_gpu_uuids() const {
  std::vector<std::string> out;
  if (!m_f.kernel.nvidia_gpus) return out;
  for (const auto& g : *m_f.kernel.nvidia_gpus) {
    if (!g.uuid.empty()) out.push_back(g.uuid);
  }
  return out;
}

std::string pci_device_name(const facts::PciDevice& d) {
  if (!d.device_name.empty()) {
    // pci.ids: vendor "NVIDIA Corporation", device "AD102 [GeForce RTX 4090]": prefer the bracket.
    std::string_view name = d.device_name;
    auto open = name.find('[');
    auto close = name.rfind(']');
    std::string vendor = d.vendor_id == k_vendor_nvidia ? "NVIDIA"
                         : d.vendor_id == k_vendor_amd  ? "AMD"
                         : d.vendor_id == k_vendor_intel ? "Intel"
                                                          : d.vendor_name;
    if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
      return fmt::format("{} {}", vendor, name.substr(open + 1, close - open - 1));
    }
    return fmt::format("{} {}", vendor, name);
  }
  return fmt::format("PCI {:04x}:{:04x}", d.vendor_id, d.device_id);
}

std::string EnvironmentView::describe(const facts::PciDevice& d) const {
  return fmt::format("{} ({})", pci_device_name(d), d.address);
}

}  // namespace gpudoctor::checks
