#include <probe/pci_names.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::probe {
namespace {

// A pci.ids excerpt in the real layout: comments, a vendor without the device, subsystems, and the
// class list whose indented lines must not be read as the last vendor's devices.
constexpr std::string_view k_ids =
    "# List of PCI ID's\n"
    "#\tvendor  vendor_name\n"
    "1002  Advanced Micro Devices, Inc. [AMD/ATI]\n"
    "\t2684  Not this one\n"
    "10de  NVIDIA Corporation\n"
    "\t1eb8  TU104GL [Tesla T4]\n"
    "\t\t10de 12a2  T4 16GB\n"
    "\t2684  AD102 [GeForce RTX 4090]\r\n"
    "ffff  Illegal Vendor ID\n"
    "C 03  Display controller\n"
    "\t02  3D controller\n";

TEST(PciNames, VendorAndDevice) {
  PciName n = lookup_pci_name_in(k_ids, 0x10de, 0x2684);
  EXPECT_EQ(n.vendor, "NVIDIA Corporation");
  EXPECT_EQ(n.device, "AD102 [GeForce RTX 4090]");
  EXPECT_EQ(lookup_pci_name_in(k_ids, 0x10de, 0x1eb8).device, "TU104GL [Tesla T4]");
}

TEST(PciNames, UnknownDeviceKeepsTheVendorOnly) {
  PciName n = lookup_pci_name_in(k_ids, 0x10de, 0x12a2);  // a subsystem id, not a device of 10de
  EXPECT_EQ(n.vendor, "NVIDIA Corporation");
  EXPECT_EQ(n.device, "");
  PciName ffff = lookup_pci_name_in(k_ids, 0xffff, 0x02);  // the class list is not ffff's devices
  EXPECT_EQ(ffff.vendor, "Illegal Vendor ID");
  EXPECT_EQ(ffff.device, "");
}

TEST(PciNames, UnknownVendorAndEmptyDatabase) {
  EXPECT_EQ(lookup_pci_name_in(k_ids, 0x1234, 0x5678).vendor, "");
  EXPECT_EQ(lookup_pci_name_in("", 0x10de, 0x2684).device, "");
  EXPECT_EQ(lookup_pci_name_in("10de", 0x10de, 0x2684).vendor, "");  // cut-off line
}

}  // namespace
}  // namespace gpudoctor::probe
