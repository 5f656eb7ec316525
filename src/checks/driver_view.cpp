#include <checks/driver_view.hpp>

#include <checks/environment_view.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <cctype>

namespace gpudoctor::checks {
namespace {

// NVML writes "00000000:01:00.0", sysfs "0000:01:00.0": compare lower-case, domain as a number.
std::string normal_bus_id(std::string_view id) {
  auto colon = id.find(':');
  if (colon == std::string_view::npos) return std::string(id);
  auto domain = util::parse_uint(id.substr(0, colon), 16);
  std::string rest(id.substr(colon));
  for (char& c : rest) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return fmt::format("{:04x}{}", domain.value_or(0), rest);
}

}  // namespace

DriverView::DriverView(const facts::Facts& f) {
  const auto& nvml = f.driver.nvml;
  if (nvml.driver_version) {
    m_driver_version = *nvml.driver_version;
    m_driver_version_source = f.meta.from_text ? "as the text shows" : "nvmlSystemGetDriverVersion";
  } else if (!f.environment.kernel.nvidia_version.empty()) {
    m_driver_version = f.environment.kernel.nvidia_version;
    m_driver_version_source = "/proc/driver/nvidia/version";
  } else {
    // The driver's libcuda.so.VERSION names its release (a stub or a compat library does not).
    for (const auto& lib : f.environment.libraries.libraries) {
      if (lib.kind != facts::DriverLibKind::libcuda || lib.is_stub || lib.version.empty() ||
          util::contains(lib.path, "/compat/")) {
        continue;
      }
      m_driver_version = lib.version;
      m_driver_version_source = "the file name of " + lib.path;
      break;
    }
  }
  EnvironmentView env(f.environment);
  std::vector<const facts::PciDevice*> pci = env.gpus(k_vendor_nvidia);
  std::vector<bool> pci_used(pci.size(), false);
  for (const auto& d : nvml.devices) {
    GpuView g;
    g.nvml = &d;
    g.name = d.name.value_or("");
    if (d.pci_bus_id) {
      for (std::size_t i = 0; i < pci.size(); ++i) {
        if (normal_bus_id(pci[i]->address) == normal_bus_id(*d.pci_bus_id)) {
          g.pci = pci[i];
          pci_used[i] = true;
        }
      }
    }
    g.device_id = d.pci_device_id ? (*d.pci_device_id >> 16) : (g.pci ? g.pci->device_id : 0);
    if (d.cc_major && d.cc_minor) {
      g.cc = ComputeCapability{*d.cc_major, *d.cc_minor};
      g.cc_source = "NVML";
    } else if (auto cc = cc_from_pci(g.device_id, g.pci ? g.pci->device_name : g.name)) {
      g.cc = cc;
      g.cc_source = fmt::format("PCI id 10de:{:04x}", g.device_id);
    } else if (auto named = cc_from_product_name(g.name)) {
      g.cc = named->cc;
      g.cc_source = fmt::format("the product name ({} has compute capability {}.{})", named->match, named->cc.major,
                                named->cc.minor);
    }
    g.label = fmt::format("GPU {} {}({})", d.index, g.name.empty() ? "" : g.name + " ", d.pci_bus_id.value_or("bus id unknown"));
    m_gpus.push_back(std::move(g));
  }
  for (std::size_t i = 0; i < pci.size(); ++i) {
    if (pci_used[i]) continue;
    // NVML may not list a GPU at all (no driver, or a driver that dropped its architecture).
    GpuView g;
    g.pci = pci[i];
    g.device_id = pci[i]->device_id;
    g.name = pci_device_name(*pci[i]);
    if (auto cc = cc_from_pci(g.device_id, pci[i]->device_name)) {
      g.cc = cc;
      g.cc_source = fmt::format("PCI id 10de:{:04x} ({})", g.device_id, pci[i]->device_name);
    }
    g.label = fmt::format("{} ({})", g.name, pci[i]->address);
    m_gpus.push_back(std::move(g));
  }
}

int DriverView::driver_branch() const {
  auto parts = util::split(m_driver_version, '.');
  if (parts.empty()) return 0;
  return static_cast<int>(util::parse_int(parts.front()).value_or(0));
}

std::string format_bytes(std::uint64_t bytes) {
  return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / static_cast<double>(1ULL << 30));
}

}  // namespace gpudoctor::checks
