// torch.arch_unsupported from facts literals: the kernels of the installed libraries decide, the
// published arch list only when they could not be read, and the GPU's compute capability comes from
// NVML or, without a driver, from the PCI id.
#include <checks/check.hpp>

#include <algorithm>

#include <gtest/gtest.h>

namespace gpudoctor::checks {
namespace {

using facts::FatbinEntry;
using facts::FatbinEntryKind;
using facts::FatbinSummary;
using facts::FrameworkBuild;

const std::string k_lib = "/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so";

FatbinEntry entry(FatbinEntryKind kind, int arch) {
  FatbinEntry e;
  e.kind = kind;
  e.raw_kind = kind == FatbinEntryKind::ptx ? 1 : 2;
  e.arch = arch;
  e.version_major = kind == FatbinEntryKind::ptx ? 8 : 0;
  e.version_minor = kind == FatbinEntryKind::ptx ? 4 : 0;
  return e;
}

FatbinSummary image(std::string path, std::vector<FatbinEntry> entries) {
  FatbinSummary s;
  s.path = std::move(path);
  s.sections = {".nv_fatbin"};
  s.containers = 1200;
  s.entries = std::move(entries);
  return s;
}

FrameworkBuild cuda_torch(facts::Known<std::vector<FatbinSummary>> kernels) {
  FrameworkBuild b;
  b.framework = facts::Framework::torch;
  b.package_dir = "/venv/lib/python3.11/site-packages/torch";
  b.version = "2.5.1+cu121";
  b.kind = facts::BuildKind::cuda;
  b.cuda_version = "12.1";
  b.kernel_images = std::move(kernels);
  return b;
}

facts::NvmlDevice nvml_gpu(int index, int major, int minor) {
  facts::NvmlDevice d;
  d.index = index;
  d.name = std::string("NVIDIA Test GPU");
  d.cc_major = major;
  d.cc_minor = minor;
  return d;
}

Facts machine(FrameworkBuild b, std::vector<facts::NvmlDevice> gpus) {
  Facts f;
  f.driver.nvml.driver_version = std::string("570.124.06");
  f.driver.nvml.cuda_driver_version = 12080;
  f.driver.nvml.devices = std::move(gpus);
  facts::PythonEnvironment env;
  env.interpreter = "/venv/bin/python";
  env.label = "the venv /venv";
  env.builds = {std::move(b)};
  f.framework.environments = std::vector<facts::PythonEnvironment>{env};
  return f;
}

std::vector<Finding> run_arch_check(const Facts& f) {
  std::vector<Finding> out;
  for (const auto& c : framework_checks()) {
    if (c.info.id != "torch.arch_unsupported") continue;
    FindingSink sink(c.info, out);
    c.run(f, sink);
  }
  return out;
}

bool says(const Finding& f, std::string_view text) {
  if (f.message.find(text) != std::string::npos || f.fix.find(text) != std::string::npos) return true;
  return std::any_of(f.evidence.begin(), f.evidence.end(),
                     [&](const std::string& e) { return e.find(text) != std::string::npos; });
}

std::vector<FatbinSummary> sm75_sm80() {
  return {image(k_lib, {entry(FatbinEntryKind::cubin, 75), entry(FatbinEntryKind::cubin, 80)})};
}

TEST(TorchArchCheck, CubinOfTheSameMajorRunsOnAHigherMinor) {
  EXPECT_TRUE(run_arch_check(machine(cuda_torch(sm75_sm80()), {nvml_gpu(0, 8, 0)})).empty());
  EXPECT_TRUE(run_arch_check(machine(cuda_torch(sm75_sm80()), {nvml_gpu(0, 8, 6)})).empty());
}

TEST(TorchArchCheck, TheInstalledFatbinDecidesOverThePublishedList) {
  // The published cu121 list includes sm_90; this library does not.
  auto found = run_arch_check(machine(cuda_torch(sm75_sm80()), {nvml_gpu(0, 9, 0)}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::error);
  EXPECT_TRUE(says(found[0], "has kernels for sm_75, sm_80; this GPU is sm_90")) << found[0].message;
  EXPECT_TRUE(says(found[0], "from the fatbin of " + k_lib + ": cubins sm_75 sm_80; PTX none"));
  EXPECT_TRUE(says(found[0], "compute capability 9.0 (sm_90, from NVML)"));
  EXPECT_FALSE(says(found[0], "published arch list"));
}

TEST(TorchArchCheck, PtxJitIsAWarningNotAnError) {
  auto kernels =
      std::vector<FatbinSummary>{image(k_lib, {entry(FatbinEntryKind::cubin, 80), entry(FatbinEntryKind::ptx, 90)})};
  auto found = run_arch_check(machine(cuda_torch(kernels), {nvml_gpu(0, 12, 0)}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::warning);
  EXPECT_TRUE(says(found[0], "JIT-compile compute_90 PTX")) << found[0].message;
  // The same PTX never serves an older GPU: 8.6 runs the sm_80 cubin, 7.5 nothing at all.
  EXPECT_TRUE(run_arch_check(machine(cuda_torch(kernels), {nvml_gpu(0, 8, 6)})).empty());
  auto turing = run_arch_check(machine(cuda_torch(kernels), {nvml_gpu(0, 7, 5)}));
  ASSERT_EQ(turing.size(), 1u);
  EXPECT_EQ(turing[0].severity, Severity::error);
}

TEST(TorchArchCheck, TheLibraryWithoutAUsableKernelDecides) {
  const std::string other = "/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda_linalg.so";
  auto kernels = std::vector<FatbinSummary>{
      image(k_lib, {entry(FatbinEntryKind::cubin, 80), entry(FatbinEntryKind::cubin, 90)}),
      image(other, {entry(FatbinEntryKind::cubin, 80)}),
      image("/venv/lib/python3.11/site-packages/torch/lib/libc10_cuda.so", {})};  // no device code: ignored
  auto found = run_arch_check(machine(cuda_torch(kernels), {nvml_gpu(0, 9, 0)}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(says(found[0], other + ": no kernel image for compute capability 9.0")) << found[0].evidence.back();
  EXPECT_FALSE(says(found[0], "libc10_cuda.so"));
}

TEST(TorchArchCheck, FallsBackToThePublishedListAndSaysWhy) {
  auto unread = facts::Known<std::vector<FatbinSummary>>::unknown(k_lib + ": not an ELF file");
  auto found = run_arch_check(machine(cuda_torch(unread), {nvml_gpu(0, 12, 0)}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(says(found[0], "has kernels for sm_50…sm_90; this GPU is sm_120")) << found[0].message;
  EXPECT_TRUE(says(found[0], "from the published arch list for 2.5.1+cu121"));
  EXPECT_TRUE(says(found[0], "fatbins were not read: " + k_lib + ": not an ELF file"));
  // The published list covers 9.0, so the fallback says nothing there.
  EXPECT_TRUE(run_arch_check(machine(cuda_torch(unread), {nvml_gpu(0, 9, 0)})).empty());
}

TEST(TorchArchCheck, TheFallbackFollowsTheReleaseSeries) {
  // cu124 wheels carried compute_90 PTX in 2.4 and 2.5 (data/torch_arch_lists.tsv), not in 2.6.
  auto unread = facts::Known<std::vector<FatbinSummary>>::unknown("not read");
  auto b = cuda_torch(unread);
  b.cuda_version = "12.4";
  b.version = "2.5.1+cu124";
  auto jit = run_arch_check(machine(b, {nvml_gpu(0, 12, 0)}));
  ASSERT_EQ(jit.size(), 1u);
  EXPECT_EQ(jit[0].severity, Severity::warning);
  b.version = "2.6.0+cu124";
  auto none = run_arch_check(machine(b, {nvml_gpu(0, 12, 0)}));
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].severity, Severity::error);
}

TEST(TorchArchCheck, LibrariesWithoutDeviceCodeAreNotTakenAsNoKernels) {
  auto empty = std::vector<FatbinSummary>{image(k_lib, {})};
  auto found = run_arch_check(machine(cuda_torch(empty), {nvml_gpu(0, 12, 0)}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(says(found[0], "from the published arch list")) << found[0].evidence.back();
  EXPECT_TRUE(says(found[0], "they hold no GPU code"));
}

TEST(TorchArchCheck, CapabilityFromThePciIdWithoutADriver) {
  auto f = machine(cuda_torch(sm75_sm80()), {});
  f.driver.nvml.driver_version = facts::Known<std::string>::unknown("no driver");
  facts::PciDevice h100;
  h100.address = "0000:17:00.0";
  h100.vendor_id = 0x10de;
  h100.device_id = 0x2330;  // H100 SXM5 80GB, 9.0 in data/gpu_devices.tsv
  h100.class_code = 0x030200;
  f.environment.pci.devices = std::vector<facts::PciDevice>{h100, h100};
  f.environment.pci.devices.value()[1].address = "0000:65:00.0";
  auto found = run_arch_check(f);
  ASSERT_EQ(found.size(), 1u);  // two GPUs of one capability: one finding
  EXPECT_TRUE(says(found[0], "from PCI id 10de:2330")) << found[0].evidence[found[0].evidence.size() - 2];
}

TEST(TorchArchCheck, AFermiOrOlderGpuHasNoKernelsFromAnyCuda9Build) {
  // torch 1.2.0+cu100: no fatbin read and no published list in the table, but CUDA 10.0 cannot
  // compile for sm_2x or sm_1x.
  auto old = cuda_torch(facts::Known<std::vector<FatbinSummary>>::unknown("not in the text"));
  old.version = "1.2.0";
  old.cuda_version = "10.0";
  auto found = run_arch_check(machine(old, {nvml_gpu(0, 1, 2)}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(says(found[0], "sm_12"));
  EXPECT_TRUE(says(found[0], "CUDA 9.0 and later"));
  EXPECT_EQ(run_arch_check(machine(old, {nvml_gpu(0, 2, 1)})).size(), 1u);
  // A Kepler GPU with the same build: its arch list is unknown, nothing is said.
  EXPECT_TRUE(run_arch_check(machine(old, {nvml_gpu(0, 3, 5)})).empty());
  // A build with CUDA 8 could still carry sm_2x.
  old.cuda_version = "8.0";
  EXPECT_TRUE(run_arch_check(machine(old, {nvml_gpu(0, 2, 1)})).empty());
}

TEST(TorchArchCheck, CpuBuildsAndUnknownGpusAreLeftAlone) {
  auto b = cuda_torch(sm75_sm80());
  b.kind = facts::BuildKind::cpu;
  EXPECT_TRUE(run_arch_check(machine(b, {nvml_gpu(0, 9, 0)})).empty());
  EXPECT_TRUE(run_arch_check(machine(cuda_torch(sm75_sm80()), {})).empty());
}

}  // namespace
}  // namespace gpudoctor::checks
