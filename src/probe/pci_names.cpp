#include <probe/pci_names.hpp>

#include <cstdarg>
#include <mutex>

extern "C" {
#include <pci/pci.h>
}

namespace gpudoctor::probe {
namespace {

// libpci's default error handler exits the process; ours only records that the database failed.
void pci_quiet(char*, ...) {}
[[noreturn]] void pci_fatal(char*, ...) { throw std::runtime_error("libpci error"); }

class PciNameDb {
 public:
  PciNameDb() {
    m_access = pci_alloc();
    if (m_access) {
      m_access->error = pci_fatal;
      m_access->warning = pci_quiet;
      m_access->debug = pci_quiet;
    }
  }
  ~PciNameDb() {
    if (m_access) pci_cleanup(m_access);
  }
  PciNameDb(const PciNameDb&) = delete;
  PciNameDb& operator=(const PciNameDb&) = delete;

  PciName lookup(std::uint32_t vendor_id, std::uint32_t device_id) {
    std::lock_guard lock(m_mutex);
    PciName out;
    if (!m_access || m_failed) return out;
    char buf[256];
    try {
      const int flags = PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_NUMBERS;
      if (const char* v = pci_lookup_name(m_access, buf, sizeof buf, flags, static_cast<int>(vendor_id))) out.vendor = v;
      const int dflags = PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS;
      if (const char* d = pci_lookup_name(m_access, buf, sizeof buf, dflags, static_cast<int>(vendor_id),
                                          static_cast<int>(device_id))) {
        out.device = d;
      }
    } catch (const std::exception&) {
      m_failed = true;
      return PciName{};
    }
    return out;
  }

 private:
  std::mutex m_mutex;
  pci_access* m_access = nullptr;
  bool m_failed = false;
};

}  // namespace

PciName lookup_pci_name(std::uint32_t vendor_id, std::uint32_t device_id) {
  static PciNameDb db;
  return db.lookup(vendor_id, device_id);
}

}  // namespace gpudoctor::probe
