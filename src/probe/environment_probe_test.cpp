// Probes on small trees and with injected faults: an unreadable fact becomes "could not read,
// because ...", and the checks then refuse to call the machine healthy.
#include <probe/probe.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <checks/check.hpp>
#include <sys/archive.hpp>
#include <sys/memory_file_system.hpp>
#include <sys/recording_file_system.hpp>

namespace gpudoctor::probe {
namespace {

namespace stdfs = std::filesystem;

class Tree {
 public:
  Tree() : m_dir(sys::TempDir::create("gpudoctor-probe-test-").value()) {}
  void file(const std::string& p, const std::string& content) {
    stdfs::create_directories(stdfs::path(m_dir.path() + p).parent_path());
    std::ofstream(m_dir.path() + p, std::ios::binary) << content;
  }
  void link(const std::string& p, const std::string& target) {
    stdfs::create_directories(stdfs::path(m_dir.path() + p).parent_path());
    stdfs::create_symlink(target, m_dir.path() + p);
  }
  void nvidia_gpu(const std::string& addr, const std::string& driver) {
    std::string real = "/sys/devices/pci0000:00/" + addr;
    file(real + "/vendor", "0x10de\n");
    file(real + "/device", "0x2684\n");
    file(real + "/class", "0x030000\n");
    link("/sys/bus/pci/devices/" + addr, "../../../devices/pci0000:00/" + addr);
    if (!driver.empty()) {
      stdfs::create_directories(m_dir.path() + "/sys/bus/pci/drivers/" + driver);
      link(real + "/driver", "../../../bus/pci/drivers/" + driver);
    }
  }
  const std::string& root() const { return m_dir.path(); }

 private:
  sys::TempDir m_dir;
};

// Denies one path prefix, as a sandbox or a hardened sysfs would.
class DenyingFileSystem final : public sys::FileSystemWrapper {
 public:
  DenyingFileSystem(const sys::FileSystem& fs, std::string prefix) : FileSystemWrapper(fs), m_prefix(std::move(prefix)) {}
  sys::Expected<std::vector<sys::DirEntry>> list_dir(std::string_view path) const override {
    if (path.starts_with(m_prefix)) return sys::error_from_errno(EACCES, "opendir " + std::string(path));
    return target().list_dir(path);
  }
  sys::Expected<sys::TextFile> read_file(std::string_view path, std::size_t limit) const override {
    if (path.starts_with(m_prefix)) return sys::error_from_errno(EACCES, "open " + std::string(path));
    return target().read_file(path, limit);
  }

 private:
  std::string m_prefix;
};

TEST(PciProbe, ReadsVendorClassAndDriverThroughSysfsLinks) {
  Tree t;
  t.nvidia_gpu("0000:01:00.0", "nvidia");
  t.nvidia_gpu("0000:02:00.0", "");
  auto fs = sys::make_rooted_file_system(t.root());
  auto pci = probe_pci(*fs);
  ASSERT_TRUE(pci.devices);
  ASSERT_EQ(pci.devices->size(), 2u);
  EXPECT_EQ((*pci.devices)[0].vendor_id, 0x10deu);
  EXPECT_EQ((*pci.devices)[0].driver.value_or("?"), "nvidia");
  EXPECT_EQ((*pci.devices)[1].driver.value_or("?"), "");
  EXPECT_FALSE((*pci.devices)[0].max_link_width.known());  // not in the tree: unknown, not 0
}

TEST(PciProbe, PermissionDeniedIsAFactAndNotANoGpuVerdict) {
  Tree t;
  t.nvidia_gpu("0000:01:00.0", "nvidia");
  auto real = sys::make_rooted_file_system(t.root());
  DenyingFileSystem fs(*real, "/sys/bus/pci");
  auto facts = probe_files(fs);
  ASSERT_FALSE(facts.environment.pci.devices.known());
  EXPECT_NE(facts.environment.pci.devices.why().find("Permission denied"), std::string::npos);
  auto findings = checks::run_checks(facts);
  bool no_gpu = false, unreadable = false;
  for (const auto& f : findings) {
    no_gpu = no_gpu || f.id == "hw.no_gpu";
    unreadable = unreadable || f.id == "probe.unreadable";
  }
  EXPECT_FALSE(no_gpu);
  EXPECT_TRUE(unreadable);
}

TEST(PciProbe, AnUnreadableFunctionMakesTheListingUnknownWhenNothingElseIsListed) {
  Tree t;
  t.nvidia_gpu("0000:01:00.0", "nvidia");
  auto real = sys::make_rooted_file_system(t.root());
  DenyingFileSystem fs(*real, "/sys/bus/pci/devices/0000:01:00.0/class");
  auto pci = probe_pci(fs);
  EXPECT_FALSE(pci.devices.known());
}

TEST(KernelProbe, ParsesBothNvidiaBanners) {
  for (auto [banner, flavor] :
       {std::pair{"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  555.42.02  Release Build  (dvs-builder@U16)",
                  facts::NvidiaModuleFlavor::open},
        std::pair{"NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024",
                  facts::NvidiaModuleFlavor::proprietary}}) {
    Tree t;
    t.file("/proc/driver/nvidia/version", std::string(banner) + "\nGCC version: gcc 12\n");
    auto fs = sys::make_rooted_file_system(t.root());
    auto k = probe_kernel(*fs);
    EXPECT_EQ(k.nvidia_flavor, flavor);
    EXPECT_EQ(k.nvidia_version, flavor == facts::NvidiaModuleFlavor::open ? "555.42.02" : "550.54.14");
  }
}

TEST(KernelProbe, NoProcModulesFallsBackToBuiltinSysModule) {
  Tree t;
  t.file("/sys/module/i915/parameters/modeset", "-1\n");
  t.file("/sys/module/ext4/parameters/x", "1\n");
  auto fs = sys::make_rooted_file_system(t.root());
  auto k = probe_kernel(*fs);
  ASSERT_TRUE(k.modules);
  ASSERT_EQ(k.modules->size(), 1u);
  EXPECT_EQ((*k.modules)[0].name, "i915");
  EXPECT_EQ((*k.modules)[0].state, "builtin");
}

TEST(EnvProbe, KeepsOnlyAllowlistedVariablesAndSanitises) {
  Tree t;
  constexpr char k_environ[] = "CUDA_VISIBLE_DEVICES=\0SECRET_TOKEN=x\0PATH=/bin\0JAX_PLATFORMS=\xff\0";
  t.file("/proc/self/environ", std::string(k_environ, sizeof k_environ - 1));
  auto fs = sys::make_rooted_file_system(t.root());
  auto env = probe_env(*fs);
  ASSERT_TRUE(env);
  EXPECT_EQ(env->count("SECRET_TOKEN"), 0u);
  EXPECT_EQ(env->at("CUDA_VISIBLE_DEVICES"), "");
  EXPECT_EQ(env->at("JAX_PLATFORMS"), "\xef\xbf\xbd");
}

TEST(Probes, UnderARootNothingOutsideItIsRead) {
  Tree t;
  auto real = sys::make_rooted_file_system(t.root());
  sys::RecordingFileSystem rec(*real);
  auto facts = probe_files(rec);
  EXPECT_FALSE(facts.environment.pci.devices.known());
  EXPECT_FALSE(facts.environment.env.known());
  EXPECT_FALSE(rec.accesses().empty());
  for (const auto& a : rec.accesses()) EXPECT_EQ(a.path.front(), '/') << a.path;
}

}  // namespace
}  // namespace gpudoctor::probe

namespace gpudoctor::probe {
namespace {

// Found by the machine fuzz target: ld.so.conf files that include a directory of files that each
// include the whole directory again were read 64^4 times. Each file is read once, the directories
// they name are all searched, and the probe returns at once.
TEST(LibraryProbe, LdSoConfIncludesThatLoopAreReadOnce) {
  std::map<std::string, std::string> files = {{"/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n"}};
  for (int i = 0; i < 64; ++i) {
    files["/etc/ld.so.conf.d/" + std::to_string(i) + ".conf"] =
        "include /etc/ld.so.conf.d/*.conf\n/opt/lib" + std::to_string(i) + "\ninclude /etc/ld.so.conf\n";
  }
  auto fs = sys::make_memory_file_system(files);
  auto libs = probe_libraries(*fs, facts::Known<std::map<std::string, std::string>>::unknown("not read"));
  for (int i = 0; i < 64; ++i) {
    EXPECT_NE(std::find(libs.searched_dirs.begin(), libs.searched_dirs.end(), "/opt/lib" + std::to_string(i)),
              libs.searched_dirs.end())
        << i;
  }
}

}  // namespace
}  // namespace gpudoctor::probe
