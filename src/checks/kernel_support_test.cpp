#include <checks/kernel_support.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::checks {
namespace {

using facts::ArchVariant;
using facts::FatbinEntry;
using facts::FatbinEntryKind;
using facts::FatbinSummary;

FatbinEntry cubin(int arch, ArchVariant v = ArchVariant::plain) {
  FatbinEntry e;
  e.kind = FatbinEntryKind::cubin;
  e.raw_kind = 2;
  e.arch = arch;
  e.variant = v;
  return e;
}

FatbinEntry ptx(int arch, ArchVariant v = ArchVariant::plain) {
  FatbinEntry e = cubin(arch, v);
  e.kind = FatbinEntryKind::ptx;
  e.raw_kind = 1;
  e.version_major = 9;
  return e;
}

FatbinSummary summary(std::vector<FatbinEntry> entries) {
  FatbinSummary s;
  s.entries = std::move(entries);
  return s;
}

TEST(KernelSupport, CubinRunsOnSameMajorAtEqualOrHigherMinor) {
  auto s = summary({cubin(80), cubin(86)});
  auto on_89 = predict_support(s, 8, 9);
  EXPECT_EQ(on_89.kind, KernelSupportKind::native);
  EXPECT_EQ(on_89.arch, 86);  // the newest cubin that fits
  EXPECT_EQ(predict_support(s, 8, 0).arch, 80);
  EXPECT_EQ(predict_support(summary({cubin(86)}), 8, 0).kind, KernelSupportKind::no_kernel_image);  // no backwards
  EXPECT_EQ(predict_support(s, 9, 0).kind, KernelSupportKind::no_kernel_image);  // never across majors
}

TEST(KernelSupport, BlackwellConsumerDoesNotRunDatacenterCubins) {
  // sm_100 kernels do not run on an RTX 50 (12.0): the "no kernel image is available" case.
  auto r = predict_support(summary({cubin(90), cubin(100)}), 12, 0);
  EXPECT_EQ(r.kind, KernelSupportKind::no_kernel_image);
  EXPECT_NE(r.reason.find("sm_100"), std::string::npos) << r.reason;
}

TEST(KernelSupport, PtxJitsForwardIncludingNewerMajors) {
  auto s = summary({cubin(80), ptx(90)});
  auto r = predict_support(s, 12, 0);
  EXPECT_EQ(r.kind, KernelSupportKind::ptx_jit);
  EXPECT_EQ(r.arch, 90);
  EXPECT_EQ(predict_support(s, 8, 6).kind, KernelSupportKind::native);  // a cubin is preferred to PTX
  EXPECT_EQ(predict_support(summary({ptx(90)}), 8, 9).kind, KernelSupportKind::no_kernel_image);  // PTX never goes back
}

TEST(KernelSupport, ArchSpecificRunsOnlyOnItsExactCapability) {
  auto s = summary({cubin(90, ArchVariant::arch_specific), ptx(100, ArchVariant::arch_specific)});
  EXPECT_EQ(predict_support(s, 9, 0).kind, KernelSupportKind::native);
  EXPECT_EQ(predict_support(s, 10, 0).kind, KernelSupportKind::ptx_jit);
  EXPECT_EQ(predict_support(s, 10, 3).kind, KernelSupportKind::no_kernel_image);
  EXPECT_EQ(predict_support(s, 12, 0).kind, KernelSupportKind::no_kernel_image);
}

TEST(KernelSupport, FamilySpecificStaysInsideItsMajor) {
  auto s = summary({cubin(100, ArchVariant::family_specific), ptx(100, ArchVariant::family_specific)});
  EXPECT_EQ(predict_support(s, 10, 3).kind, KernelSupportKind::native);
  EXPECT_EQ(predict_support(s, 12, 0).kind, KernelSupportKind::no_kernel_image);  // f-PTX does not JIT to 12.x
}

TEST(KernelSupport, EmptyFile) {
  auto r = predict_support(FatbinSummary{}, 8, 9);
  EXPECT_EQ(r.kind, KernelSupportKind::no_kernel_image);
  EXPECT_EQ(r.reason, "the file holds no CUDA kernels");
}

TEST(FatbinFacts, JsonRoundTrip) {
  auto s = summary({cubin(90, ArchVariant::arch_specific), ptx(120, ArchVariant::family_specific)});
  s.entries[1].compressed = true;
  s.entries[1].payload_size = 375;
  s.path = "/x/lib.so";
  s.sections = {".nv_fatbin"};
  s.containers = 1;
  nlohmann::json j = s;
  EXPECT_EQ(j["cubins"], nlohmann::json::array({"sm_90a"}));
  EXPECT_EQ(j["ptx"], nlohmann::json::array({"compute_120f"}));
  EXPECT_EQ(j.get<FatbinSummary>(), s);
}

}  // namespace
}  // namespace gpudoctor::checks
