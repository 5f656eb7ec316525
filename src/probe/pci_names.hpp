// Vendor and device names from pci.ids, through libpci. pci.ids is gpudoctor's own knowledge (the
// copy installed beside it), not a fact of the machine being diagnosed, so it is read from the host
// even under --root. The database is parsed on first use only.
// Thread-safety: lookups are serialised internally.
#pragma once

#include <cstdint>
#include <string>

namespace gpudoctor::probe {

struct PciName {
  std::string vendor;
  std::string device;
};

PciName lookup_pci_name(std::uint32_t vendor_id, std::uint32_t device_id);

}  // namespace gpudoctor::probe
