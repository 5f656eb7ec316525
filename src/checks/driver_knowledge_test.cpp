#include <checks/driver_knowledge.hpp>

#include <gtest/gtest.h>

#include <checks/check.hpp>

namespace gpudoctor::checks {
namespace {

TEST(DriverSupport, FullMinorCompatibilityAndUnsupported) {
  EXPECT_EQ(driver_support("12.4", "550.54.14"), DriverSupport::full);
  EXPECT_EQ(driver_support("12.4", "535.104.05"), DriverSupport::minor_compatibility);
  EXPECT_EQ(driver_support("12.4", "470.82.01"), DriverSupport::unsupported);
  EXPECT_EQ(driver_support("13.0", "550.54.14"), DriverSupport::unsupported);
  EXPECT_EQ(driver_support("13.0", "580.65.06"), DriverSupport::full);
  // CUDA 10.x had no minor-version compatibility.
  EXPECT_EQ(driver_support("10.2", "418.39"), DriverSupport::unsupported);
  // 12.7 was never released: it needs at least what 12.6 needed.
  EXPECT_EQ(driver_support("12.7", "560.28.03"), DriverSupport::full);
  EXPECT_EQ(driver_support("twelve", "550"), DriverSupport::unknown);
}

TEST(DriverSupport, HelperOtherLayersCall) {
  EXPECT_TRUE(driver_supports("12.1", "530.30.02"));
  EXPECT_TRUE(driver_supports("11.8", "450.80.02"));
  EXPECT_FALSE(driver_supports("11.8", "440.33"));
}

// A driver release alone tells its CUDA version: the newest CUDA whose GA driver it is at least.
TEST(DriverSupport, TheCudaVersionOfADriverRelease) {
  EXPECT_EQ(cuda_of_driver("470.182.03").value_or(0), 11040);
  EXPECT_EQ(cuda_of_driver("418.87").value_or(0), 10010);
  EXPECT_EQ(cuda_of_driver("460.32.03").value_or(0), 11020);
  EXPECT_FALSE(cuda_of_driver("340.108")) << "older than every row";
  EXPECT_FALSE(cuda_of_driver("not a version"));
}

TEST(DriverSupport, ByTheDriversCudaVersion) {
  EXPECT_EQ(driver_support_by_cuda("12.4", 12040), DriverSupport::full);
  EXPECT_EQ(driver_support_by_cuda("12.4", 12020), DriverSupport::minor_compatibility);
  EXPECT_EQ(driver_support_by_cuda("13.0", 12090), DriverSupport::unsupported);
  EXPECT_EQ(driver_support_by_cuda("10.2", 10010), DriverSupport::unsupported);
  EXPECT_EQ(cuda_version_string(12040), "12.4");
  EXPECT_EQ(cuda_version_string(13000), "13.0");
}

TEST(ErrorTables, CodesTheIssueNames) {
  EXPECT_EQ(cuda_error(CudaApi::driver, 34)->name, "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_EQ(cuda_error(CudaApi::driver, 999)->name, "CUDA_ERROR_UNKNOWN");
  EXPECT_NE(cuda_error(CudaApi::driver, 999)->cause.find("nvidia_uvm"), std::string::npos);
  EXPECT_EQ(cuda_error(CudaApi::driver, 803)->name, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH");
  EXPECT_EQ(cuda_error(CudaApi::driver, 804)->name, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE");
  // 35 exists in the runtime's enum only.
  EXPECT_FALSE(cuda_error(CudaApi::driver, 35).has_value());
  EXPECT_EQ(cuda_error(CudaApi::runtime, 35)->name, "cudaErrorInsufficientDriver");
  EXPECT_EQ(nvml_error(18)->name, "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
  EXPECT_EQ(nvml_error(15)->name, "NVML_ERROR_GPU_IS_LOST");
  for (int code = 0; code <= 30; ++code) EXPECT_TRUE(nvml_error(code).has_value()) << code;
  EXPECT_TRUE(nvml_error(999).has_value());
  EXPECT_NE(describe_cuda_error(CudaApi::driver, 34).find("stub"), std::string::npos);
}

TEST(GpuIdentity, FromPciAloneWithoutADriver) {
  EXPECT_EQ(cc_from_pci(0x2684, "AD102 [GeForce RTX 4090]")->sm(), "sm_89");
  EXPECT_EQ(cc_from_pci(0x9999, "GA102GL [RTX A6000]")->sm(), "sm_86");
  EXPECT_EQ(cc_from_pci(0x9999, "GH100[H100 SXM5 80GB]")->sm(), "sm_90");
  EXPECT_EQ(cc_from_pci(0x102d, "")->dotted(), "3.7");
  EXPECT_EQ(cc_from_pci(0x9999, "GK210GL [Tesla K80]")->dotted(), "3.7");
  EXPECT_FALSE(cc_from_pci(0x9999, "Unknown device").has_value());
  EXPECT_TRUE(product_requires_open_module(0, "NVIDIA GH200 480GB"));
  EXPECT_FALSE(product_requires_open_module(0x2330, "NVIDIA H100 80GB HBM3"));
}

TEST(Architectures, DriverBranchesAndOpenModules) {
  EXPECT_EQ(architecture({3, 7})->last_driver_branch, 470);
  EXPECT_EQ(architecture({6, 1})->last_driver_branch, 580);
  EXPECT_EQ(architecture({7, 0})->name, "Volta");
  EXPECT_EQ(architecture({7, 5})->last_driver_branch, 0);
  EXPECT_EQ(architecture({12, 0})->open_module, OpenModule::required);
  EXPECT_EQ(architecture({10, 0})->cc.sm(), "sm_100");
}

TEST(Precisions, ThresholdsOfTheProgrammingGuide) {
  EXPECT_FALSE(precisions({6, 1}).fp16_tensor_cores);
  EXPECT_TRUE(precisions({7, 0}).fp16_tensor_cores);
  EXPECT_FALSE(precisions({7, 5}).bf16);
  EXPECT_TRUE(precisions({8, 0}).bf16);
  EXPECT_TRUE(precisions({8, 0}).tf32);
  EXPECT_FALSE(precisions({8, 6}).fp8);
  EXPECT_TRUE(precisions({8, 9}).fp8);
}

std::vector<std::string> driver_ids(const facts::Facts& f) {
  std::vector<std::string> ids;
  for (const auto& c : driver_checks()) {
    std::vector<facts::Finding> out;
    FindingSink sink(c.info, out);
    c.run(f, sink);
    for (const auto& x : out) ids.push_back(x.id);
  }
  return ids;
}

facts::PciDevice nvidia_pci(std::uint32_t device_id, std::string name) {
  facts::PciDevice d;
  d.address = "0000:02:00.0";
  d.vendor_id = 0x10de;
  d.device_id = device_id;
  d.class_code = 0x030200;
  d.device_name = std::move(name);
  return d;
}

TEST(DriverChecks, OpenModuleRequiredForBlackwellUnderTheProprietaryModule) {
  facts::Facts f;
  f.environment.pci.devices = std::vector<facts::PciDevice>{nvidia_pci(0x2b85, "GB202 [GeForce RTX 5090]")};
  f.environment.kernel.nvidia_flavor = facts::NvidiaModuleFlavor::proprietary;
  f.environment.kernel.nvidia_version = "570.86.16";
  auto ids = driver_ids(f);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "driver.open_module_required"), ids.end());
  f.environment.kernel.nvidia_flavor = facts::NvidiaModuleFlavor::open;
  ids = driver_ids(f);
  EXPECT_EQ(std::find(ids.begin(), ids.end(), "driver.open_module_required"), ids.end());
}

TEST(DriverChecks, KeplerOnThePciBusUnderDriver580WithoutNvml) {
  // The driver does not list a GPU it dropped: the PCI id alone says what it is.
  facts::Facts f;
  f.environment.pci.devices = std::vector<facts::PciDevice>{nvidia_pci(0x102d, "GK210GL [Tesla K80]")};
  f.environment.kernel.nvidia_version = "580.65.06";
  auto ids = driver_ids(f);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "driver.gpu_unsupported_by_driver"), ids.end());
  f.environment.kernel.nvidia_version = "470.239.06";
  ids = driver_ids(f);
  EXPECT_EQ(std::find(ids.begin(), ids.end(), "driver.gpu_unsupported_by_driver"), ids.end());
  // Windows numbers the R470 branch's drivers 471-474: 474.89 still drives Kepler.
  f.environment.kernel.nvidia_version = "474.89";
  ids = driver_ids(f);
  EXPECT_EQ(std::find(ids.begin(), ids.end(), "driver.gpu_unsupported_by_driver"), ids.end());
}

TEST(DriverChecks, UnknownIsNotZero) {
  // NVML did not report persistence or ECC: no finding claims they are off or clean.
  facts::Facts f;
  facts::NvmlDevice d;
  d.name = std::string("NVIDIA A100-SXM4-80GB");
  d.pci_bus_id = std::string("00000000:07:00.0");
  d.persistence_mode = facts::Known<int>::unknown("nvmlDeviceGetPersistenceMode: Not Supported (3)");
  f.driver.nvml.devices.push_back(d);
  auto ids = driver_ids(f);
  EXPECT_EQ(std::find(ids.begin(), ids.end(), "gpu.persistence_off"), ids.end());
  f.driver.nvml.devices[0].persistence_mode = 0;
  ids = driver_ids(f);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "gpu.persistence_off"), ids.end());
}

}  // namespace
}  // namespace gpudoctor::checks
