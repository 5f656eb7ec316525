// Checks are pure: each test builds a Facts literal and asserts the findings.
#include <checks/check.hpp>

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace gpudoctor::checks {
namespace {

using facts::DeviceNode;
using facts::NodeType;
using facts::PciDevice;
using ::testing::Contains;
using ::testing::Not;

// The ids reported, less gpu.capabilities: the driver layer's per-GPU statement of what it
// accelerates appears on every machine with a GPU and is tested there.
std::vector<std::string> ids(const std::vector<Finding>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) {
    if (f.id != "gpu.capabilities") out.push_back(f.id);
  }
  return out;
}

const Finding* find(const std::vector<Finding>& fs, std::string_view id) {
  auto it = std::find_if(fs.begin(), fs.end(), [&](const Finding& f) { return f.id == id; });
  return it == fs.end() ? nullptr : &*it;
}

PciDevice gpu(std::string addr, std::uint32_t vendor, std::string driver) {
  PciDevice d;
  d.address = std::move(addr);
  d.vendor_id = vendor;
  d.device_id = 0x2684;
  d.class_code = 0x030000;
  d.driver = std::move(driver);
  return d;
}

// A readable machine with nothing on it: every fact known, no GPU.
Facts empty_machine() {
  Facts f;
  auto& e = f.environment;
  e.pci.function_count = 3;
  e.pci.devices = std::vector<PciDevice>{};
  e.kernel.modules = std::vector<facts::KernelModule>{};
  e.dev.nodes = std::vector<DeviceNode>{};
  e.env = std::map<std::string, std::string>{};
  e.identity.uid = 1000u;
  e.identity.gid = 1000u;
  return f;
}

void add_module(Facts& f, std::string name) {
  f.environment.kernel.modules.value().push_back({std::move(name), "Live", facts::Known<std::string>::unknown("-")});
}

void add_node(Facts& f, std::string path, std::uint32_t mode = 0666, std::uint32_t gid = 0) {
  f.environment.dev.nodes.value().push_back({std::move(path), NodeType::char_device, mode, 0, gid});
}

void add_lib(Facts& f, std::string path, std::string version, facts::DriverLibKind kind = facts::DriverLibKind::libcuda) {
  facts::DriverLibrary lib;
  lib.path = path;
  lib.resolved_path = path;
  lib.version = std::move(version);
  lib.kind = kind;
  lib.is_stub = path.find("/stubs/") != std::string::npos;
  f.environment.libraries.libraries.push_back(lib);
}

Facts healthy_nvidia() {
  Facts f = empty_machine();
  f.environment.pci.devices.value().push_back(gpu("0000:01:00.0", 0x10de, "nvidia"));
  for (auto m : {"nvidia", "nvidia_uvm", "nvidia_modeset"}) add_module(f, m);
  f.environment.kernel.nvidia_version = "550.54.14";
  for (auto n : {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm"}) add_node(f, n);
  add_lib(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "550.54.14");
  add_lib(f, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "550.54.14", facts::DriverLibKind::libnvidia_ml);
  return f;
}

TEST(EnvironmentChecks, HealthyNvidiaMachineHasNoFindings) { EXPECT_THAT(ids(run_checks(healthy_nvidia())), ::testing::IsEmpty()); }

TEST(EnvironmentChecks, NoGpuIsInfoAndExitsClean) {
  auto fs = run_checks(empty_machine());
  ASSERT_EQ(ids(fs), std::vector<std::string>{"hw.no_gpu"});
  EXPECT_EQ(fs[0].severity, Severity::info);
}

TEST(EnvironmentChecks, UnreadablePciBusIsNeverNoGpu) {
  Facts f = empty_machine();
  f.environment.pci.devices = facts::Known<std::vector<PciDevice>>::unknown("opendir: Permission denied");
  auto fs = run_checks(f);
  EXPECT_THAT(ids(fs), Not(Contains("hw.no_gpu")));
  ASSERT_NE(find(fs, "probe.unreadable"), nullptr);
  EXPECT_THAT(find(fs, "probe.unreadable")->evidence[0], ::testing::HasSubstr("Permission denied"));
}

TEST(EnvironmentChecks, NouveauIsTheRootCauseOfTheMissingModule) {
  Facts f = empty_machine();
  f.environment.pci.devices.value().push_back(gpu("0000:01:00.0", 0x10de, "nouveau"));
  add_module(f, "nouveau");
  add_lib(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "550.54.14");
  auto fs = run_checks(f);
  EXPECT_EQ(ids(fs), (std::vector<std::string>{"hw.nouveau_bound", "driver.module_not_loaded"}));
  EXPECT_EQ(fs[1].explained_by, std::vector<std::string>{"hw.nouveau_bound"});
}

TEST(EnvironmentChecks, VersionMismatchNamesBothVersions) {
  Facts f = healthy_nvidia();
  f.environment.libraries.libraries[0].version = "550.90.07";
  auto fs = run_checks(f);
  ASSERT_EQ(ids(fs), std::vector<std::string>{"driver.version_mismatch"});
  EXPECT_THAT(fs[0].message, ::testing::HasSubstr("550.54.14"));
  EXPECT_THAT(fs[0].evidence.back(), ::testing::HasSubstr("550.90.07"));
}

TEST(EnvironmentChecks, StubAndCompatLibrariesAreNotTheDriver) {
  Facts f = healthy_nvidia();
  add_lib(f, "/usr/local/cuda/lib64/stubs/libcuda.so", "");
  add_lib(f, "/usr/local/cuda/compat/libcuda.so.1", "560.28.03");
  EXPECT_THAT(ids(run_checks(f)), ::testing::IsEmpty());
}

TEST(EnvironmentChecks, DevicePermissionAsNonRootOnly) {
  Facts f = healthy_nvidia();
  for (auto& n : f.environment.dev.nodes.value()) n.mode = 0660, n.gid = 44;
  f.environment.identity.group_ids["video"] = 44;
  f.environment.identity.user_name = std::string("ana");
  auto fs = run_checks(f);
  ASSERT_EQ(ids(fs), std::vector<std::string>{"driver.device_permission"});
  EXPECT_THAT(fs[0].fix, ::testing::HasSubstr("usermod -a -G video ana"));
  f.environment.identity.groups = {44};
  EXPECT_THAT(ids(run_checks(f)), ::testing::IsEmpty());
  f.environment.identity.groups = {};
  f.environment.identity.uid = 0u;
  EXPECT_THAT(ids(run_checks(f)), ::testing::IsEmpty());
  f.environment.identity.uid = facts::Known<std::uint32_t>::unknown("no status");
  EXPECT_THAT(ids(run_checks(f)), Not(Contains("driver.device_permission")));
}

TEST(EnvironmentChecks, CudaVisibleDevicesSemantics) {
  auto with = [](std::string value) {
    Facts f = healthy_nvidia();
    f.environment.env.value()["CUDA_VISIBLE_DEVICES"] = std::move(value);
    return run_checks(f);
  };
  EXPECT_EQ(ids(with("")), std::vector<std::string>{"env.cuda_visible_devices_hidden"});
  EXPECT_EQ(ids(with("-1")), std::vector<std::string>{"env.cuda_visible_devices_hidden"});
  EXPECT_EQ(ids(with("1")), std::vector<std::string>{"env.cuda_visible_devices_invalid"});
  EXPECT_EQ(with("1")[0].severity, Severity::error);
  auto cut = with("0,3");
  ASSERT_EQ(ids(cut), std::vector<std::string>{"env.cuda_visible_devices_invalid"});
  EXPECT_EQ(cut[0].severity, Severity::warning);
  EXPECT_THAT(ids(with("0")), ::testing::IsEmpty());
  EXPECT_THAT(ids(with(" 0 ")), ::testing::IsEmpty());
}

// A described machine: no PCI or device nodes, only what nvidia-smi and the CUDA runtime said.
TEST(EnvironmentChecks, CudaVisibleDevicesAgainstNvidiaSmiAndAnEmptyCudaCount) {
  Facts f;
  f.environment.env = std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "2"}};
  f.driver.nvml.device_count = 1;
  auto smi = run_checks(f);
  ASSERT_NE(find(smi, "env.cuda_visible_devices_invalid"), nullptr);
  EXPECT_EQ(find(smi, "env.cuda_visible_devices_invalid")->evidence.back(), "1 NVIDIA GPU(s) here");

  Facts g;
  g.environment.env = std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "1"}};
  EXPECT_EQ(find(run_checks(g), "env.cuda_visible_devices_invalid"), nullptr) << "nothing says GPU 1 is missing";
  g.driver.cudart.device_count = 0;
  EXPECT_NE(find(run_checks(g), "env.cuda_visible_devices_invalid"), nullptr) << "CUDA counted no device";
  g.environment.env = std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "$0"}};
  EXPECT_NE(find(run_checks(g), "env.cuda_visible_devices_invalid"), nullptr);
}

// A described WSL machine: the Windows build, the driver libraries and NVML's error are what the
// text showed; /dev/dxg is unknown and judged by nothing.
TEST(EnvironmentChecks, WslFromWhatAPostShows) {
  Facts f;
  f.environment.wsl.is_wsl = true;
  f.environment.wsl.dxg = facts::Known<bool>::unknown("not in the text");
  EXPECT_EQ(find(run_checks(f), "wsl.no_gpu_support"), nullptr);
  f.environment.wsl.windows_build = 19041;
  EXPECT_NE(find(run_checks(f), "wsl.no_gpu_support"), nullptr);
  f.environment.wsl.windows_build = 22631;
  EXPECT_EQ(find(run_checks(f), "wsl.no_gpu_support"), nullptr);
  // A WSL 2 kernel older than the one Microsoft's CUDA guide asks for (5.10.43.3), and newer ones.
  f.environment.wsl.is_wsl2 = true;
  f.environment.kernel.release = std::string("5.10.16.3-microsoft-standard-WSL2");
  const auto old_findings = run_checks(f);
  const auto* old_kernel = find(old_findings, "wsl.no_gpu_support");
  ASSERT_NE(old_kernel, nullptr);
  EXPECT_NE(old_kernel->fix.find("wsl --update"), std::string::npos);
  for (const char* release : {"5.10.43.3-microsoft-standard-WSL2", "5.15.153.1-microsoft-standard-WSL2", "6.6.36.6-microsoft-standard-WSL2"}) {
    f.environment.kernel.release = std::string(release);
    EXPECT_EQ(find(run_checks(f), "wsl.no_gpu_support"), nullptr) << release;
  }
  f.environment.kernel.release = facts::Known<std::string>::unknown("not in the text");
  f.environment.wsl.is_wsl2 = false;
  f.driver.nvml.init_error.code = 9;
  auto fs = run_checks(f);
  ASSERT_FALSE(fs.empty());
  EXPECT_EQ(fs[0].id, "wsl.linux_driver_installed") << "it explains NVML's failure";
}

// Error 35 from a runtime the installed driver supports: the runtime did not find the driver. The
// driver's release is known here only from its libcuda's file name.
TEST(EnvironmentChecks, InsufficientDriverFromARuntimeTheDriverSupports) {
  Facts f;
  facts::DriverLibrary lib;
  lib.path = lib.resolved_path = "/nix/store/x-nvidia-x11/lib/libcuda.so.560.35.03";
  lib.version = "560.35.03";
  f.environment.libraries.libraries.push_back(lib);
  f.driver.cudart.runtime_version = 12040;
  f.driver.cudart.device_count_result = 35;
  auto fs = run_checks(f);
  ASSERT_NE(find(fs, "driver.no_driver_for_runtime"), nullptr);
  EXPECT_EQ(find(fs, "driver.too_old_for_runtime"), nullptr);
  f.environment.libraries.libraries[0].version = "470.82.01";
  fs = run_checks(f);
  EXPECT_EQ(find(fs, "driver.no_driver_for_runtime"), nullptr);
  EXPECT_NE(find(fs, "driver.too_old_for_runtime"), nullptr) << "470 is too old for CUDA 12.4";
}

// TensorFlow dlopens CUDA by soname: major.minor before CUDA 11, the major from 11 on.
TEST(EnvironmentChecks, TensorflowBuiltForAnotherCudaThanTheToolkit) {
  auto with = [](std::string built, std::string toolkit) {
    Facts f;
    facts::PythonEnvironment env;
    env.label = "described";
    facts::FrameworkBuild b;
    b.framework = facts::Framework::tensorflow;
    b.version = "2.x";
    b.kind = facts::BuildKind::cuda;
    b.cuda_version = std::move(built);
    env.builds.push_back(b);
    f.framework.environments = std::vector<facts::PythonEnvironment>{env};
    f.environment.libraries.cuda_toolkit_version = std::move(toolkit);
    return find(run_checks(f), "tf.missing_gpu_libs") != nullptr;
  };
  EXPECT_TRUE(with("10.1", "10.2"));
  EXPECT_FALSE(with("10.1", "10.1"));
  EXPECT_FALSE(with("11.2", "11.8")) << "libcudart.so.11.0 serves every 11.x";
  EXPECT_TRUE(with("11.8", "12.1"));
}

TEST(EnvironmentChecks, HiddenDevicesOnAMachineWithoutGpuSayNothing) {
  Facts f = empty_machine();
  f.environment.env.value()["CUDA_VISIBLE_DEVICES"] = "";
  EXPECT_EQ(ids(run_checks(f)), std::vector<std::string>{"hw.no_gpu"});
}

TEST(EnvironmentChecks, UvmMissingIsAWarningWhenNvidiaModprobeCanLoadIt) {
  Facts f = healthy_nvidia();
  auto& mods = f.environment.kernel.modules.value();
  mods.erase(std::remove_if(mods.begin(), mods.end(), [](auto& m) { return m.name == "nvidia_uvm"; }), mods.end());
  auto fs = run_checks(f);
  ASSERT_EQ(ids(fs), std::vector<std::string>{"driver.uvm_missing"});
  EXPECT_EQ(fs[0].severity, Severity::error);
  f.environment.libraries.nvidia_modprobe_setuid = true;
  fs = run_checks(f);
  ASSERT_EQ(ids(fs), std::vector<std::string>{"driver.uvm_missing"});
  EXPECT_EQ(fs[0].severity, Severity::warning);
  f.environment.container.in_container = true;  // nvidia-modprobe cannot help inside a container
  f.environment.container.runtime = "docker";
  auto& nodes = f.environment.dev.nodes.value();
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [](auto& n) { return n.path == "/dev/nvidia-uvm"; }),
              nodes.end());
  fs = run_checks(f);
  ASSERT_FALSE(fs.empty());
  EXPECT_EQ(find(fs, "driver.uvm_missing")->severity, Severity::error);
}

TEST(EnvironmentChecks, ForcedCpuTableMatchesOnlyWhatItSays) {
  Facts f = healthy_nvidia();
  auto& env = f.environment.env.value();
  env["JAX_PLATFORMS"] = "cuda,cpu";
  EXPECT_THAT(ids(run_checks(f)), ::testing::IsEmpty());
  env["JAX_PLATFORMS"] = "cpu";
  EXPECT_EQ(ids(run_checks(f)), std::vector<std::string>{"env.framework_forced_cpu"});
  env.erase("JAX_PLATFORMS");
  env["ACCELERATE_USE_CPU"] = "False";
  EXPECT_THAT(ids(run_checks(f)), ::testing::IsEmpty());
  env["ACCELERATE_USE_CPU"] = "true";
  EXPECT_EQ(ids(run_checks(f)), std::vector<std::string>{"env.framework_forced_cpu"});
}

TEST(EnvironmentChecks, ErrorsComeBeforeWarningsAndLowerLayersFirst) {
  Facts f = healthy_nvidia();
  f.environment.env.value()["CUDA_LAUNCH_BLOCKING"] = "1";
  f.environment.libraries.libraries[0].version = "535.1.1";
  f.environment.pci.devices.value().push_back(gpu("0000:02:00.0", 0x10de, "nouveau"));
  auto fs = run_checks(f);
  ASSERT_EQ(ids(fs), (std::vector<std::string>{"hw.nouveau_bound", "driver.version_mismatch", "env.cuda_debug_vars"}));
}

}  // namespace
}  // namespace gpudoctor::checks
