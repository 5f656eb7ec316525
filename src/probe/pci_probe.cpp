// PCI functions from sysfs (Documentation/ABI/testing/sysfs-bus-pci): vendor, device and class of
// every function, and for GPUs and accelerators the bound driver, link state and NUMA node.
#include <probe/pci_names.hpp>
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

namespace gpudoctor::probe {
namespace {

constexpr std::string_view k_pci_devices = "/sys/bus/pci/devices";

// Vendors whose functions are listed whatever their class: accelerators report odd classes.
constexpr std::uint32_t k_vendor_google = 0x1ae0;  // TPU (jax/_src/hardware_utils.py)
constexpr std::uint32_t k_vendor_habana = 0x1da3;  // Gaudi

bool is_listed(std::uint32_t vendor, std::uint32_t class_code) {
  std::uint32_t base = class_code >> 16;
  if (base == 0x03 || base == 0x12) return true;  // display controller, processing accelerator
  return vendor == k_vendor_google || vendor == k_vendor_habana;
}

facts::Known<std::uint32_t> read_hex(const sys::FileSystem& fs, const std::string& path) {
  auto text = fs.read_attr(path);
  if (!text) return facts::Known<std::uint32_t>::unknown(text.error().message);
  auto v = util::parse_hex32(*text);
  if (!v) return facts::Known<std::uint32_t>::unknown(path + ": not a hex number: " + util::sanitize_utf8(*text));
  return *v;
}

facts::Known<std::string> read_string(const sys::FileSystem& fs, const std::string& path) {
  auto text = fs.read_attr(path);
  if (!text) return facts::Known<std::string>::unknown(text.error().message);
  return util::sanitize_utf8(*text);
}

facts::Known<int> read_int(const sys::FileSystem& fs, const std::string& path) {
  auto text = fs.read_attr(path);
  if (!text) return facts::Known<int>::unknown(text.error().message);
  auto v = util::parse_int(*text);
  if (!v || *v < -1000000 || *v > 1000000) {
    return facts::Known<int>::unknown(path + ": not a number: " + util::sanitize_utf8(*text));
  }
  return static_cast<int>(*v);
}

}  // namespace

facts::PciFacts probe_pci(const sys::FileSystem& fs) {
  facts::PciFacts out;
  auto entries = fs.list_dir(k_pci_devices);
  if (!entries) {
    out.function_count = facts::Known<int>::unknown(entries.error().message);
    out.devices = facts::Known<std::vector<facts::PciDevice>>::unknown(entries.error().message);
    return out;
  }
  std::vector<facts::PciDevice> devices;
  std::vector<std::string> unreadable;
  int count = 0;
  for (const auto& e : *entries) {
    ++count;
    std::string dir = util::join_path(k_pci_devices, e.name);
    auto vendor = read_hex(fs, dir + "/vendor");
    auto klass = read_hex(fs, dir + "/class");
    if (!vendor || !klass) {
      unreadable.push_back(util::sanitize_utf8(e.name) + ": " + (!vendor ? vendor.why() : klass.why()));
      continue;
    }
    if (!is_listed(*vendor, *klass)) continue;
    facts::PciDevice d;
    d.address = util::sanitize_utf8(e.name);
    d.vendor_id = *vendor;
    d.class_code = *klass;
    d.device_id = read_hex(fs, dir + "/device").value_or(0);
    d.subsystem_vendor_id = read_hex(fs, dir + "/subsystem_vendor").value_or(0);
    d.subsystem_device_id = read_hex(fs, dir + "/subsystem_device").value_or(0);
    // The driver link names the driver (basename of its target); it must also lead to the
    // driver's directory, or it is not a driver link at all (a loop, a planted file).
    auto link = fs.read_link(dir + "/driver");
    if (link) {
      auto target = fs.stat(dir + "/driver");
      if (target && target->type == sys::FileType::directory) {
        d.driver = util::sanitize_utf8(util::base_name(*link));
      } else {
        d.driver = facts::Known<std::string>::unknown(
            dir + "/driver: " + (target ? std::string("does not lead to a driver directory") : target.error().message));
      }
    } else if (link.error().code == sys::ErrorCode::not_found) {
      d.driver = std::string();
    } else {
      d.driver = facts::Known<std::string>::unknown(link.error().message);
    }
    d.current_link_speed = read_string(fs, dir + "/current_link_speed");
    d.max_link_speed = read_string(fs, dir + "/max_link_speed");
    d.current_link_width = read_int(fs, dir + "/current_link_width");
    d.max_link_width = read_int(fs, dir + "/max_link_width");
    d.numa_node = read_int(fs, dir + "/numa_node");
    PciName name = lookup_pci_name(d.vendor_id, d.device_id);
    d.vendor_name = std::move(name.vendor);
    d.device_name = std::move(name.device);
    devices.push_back(std::move(d));
  }
  out.function_count = count;
  // A function whose vendor or class cannot be read might be the GPU: the listing is then not known
  // to be complete, and "no GPU" must not be concluded from it.
  if (!unreadable.empty() && devices.empty()) {
    out.devices = facts::Known<std::vector<facts::PciDevice>>::unknown(
        "could not read " + std::to_string(unreadable.size()) + " PCI function(s): " + unreadable.front());
  } else {
    out.devices = std::move(devices);
  }
  return out;
}

}  // namespace gpudoctor::probe
