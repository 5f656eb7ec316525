// Vendor and device names from pci.ids (the PCI ID database, /usr/share/misc/pci.ids on Debian).
// pci.ids is gpudoctor's own knowledge (the copy installed beside it), not a fact of the machine
// being diagnosed, so it is read from the host even under --root. The file is read on first use
// only; a missing or unreadable database gives empty names, never an error.
// Thread-safety: lookups may be called from several threads at once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpudoctor::probe {

struct PciName {
  std::string vendor;
  std::string device;
};

PciName lookup_pci_name(std::uint32_t vendor_id, std::uint32_t device_id);

// The same lookup in the text of a pci.ids file (the parser behind lookup_pci_name, for tests).
PciName lookup_pci_name_in(std::string_view pci_ids, std::uint32_t vendor_id, std::uint32_t device_id);

}  // namespace gpudoctor::probe
