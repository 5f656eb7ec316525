#include <probe/pci_names.hpp>

#include <sys/file_system.hpp>

#include <fmt/format.h>

#include <string>

namespace gpudoctor::probe {
namespace {

// Where Debian's pci.ids package puts the database (and libpci looks for it).
constexpr std::string_view k_pci_ids_path = "/usr/share/misc/pci.ids";
// pci.ids is about 1.4 MB today; the bound leaves room for growth and stops a hostile file.
constexpr std::size_t k_pci_ids_limit = 16 << 20;

// A line "ID  Name" (ID: `digits` lower-case hex digits, then two spaces) whose ID is `id`.
bool line_names_id(std::string_view line, std::string_view id) {
  return line.size() > id.size() + 2 && line.substr(0, id.size()) == id && line.substr(id.size(), 2) == "  ";
}

std::string name_after_id(std::string_view line, std::size_t id_size) { return std::string(line.substr(id_size + 2)); }

const std::string& host_pci_ids() {
  static const std::string content = [] {
    auto fs = sys::make_rooted_file_system("/");
    auto text = fs->read_text(k_pci_ids_path, k_pci_ids_limit);
    return text ? std::move(*text) : std::string();
  }();
  return content;
}

}  // namespace

// The format (pci.ids' own header): a vendor line is "vvvv  name" at the start of a line, its
// devices follow as "\tdddd  name", their subsystems as "\t\tssss ssss  name". Other top-level
// lines ("C cc  class", the class list at the end) end the current vendor's block.
PciName lookup_pci_name_in(std::string_view pci_ids, std::uint32_t vendor_id, std::uint32_t device_id) {
  const std::string vendor_hex = fmt::format("{:04x}", vendor_id & 0xffff);
  const std::string device_hex = fmt::format("\t{:04x}", device_id & 0xffff);
  PciName out;
  bool in_vendor = false;
  std::size_t pos = 0;
  while (pos < pci_ids.size()) {
    std::size_t end = pci_ids.find('\n', pos);
    if (end == std::string_view::npos) end = pci_ids.size();
    std::string_view line = pci_ids.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    if (line[0] != '\t') {
      if (in_vendor) break;  // the vendor's block ended without the device
      if (line_names_id(line, vendor_hex)) {
        out.vendor = name_after_id(line, vendor_hex.size());
        in_vendor = true;
      }
      continue;
    }
    if (in_vendor && line_names_id(line, device_hex)) {
      out.device = name_after_id(line, device_hex.size());
      break;
    }
  }
  return out;
}

PciName lookup_pci_name(std::uint32_t vendor_id, std::uint32_t device_id) {
  return lookup_pci_name_in(host_pci_ids(), vendor_id, device_id);
}

}  // namespace gpudoctor::probe
