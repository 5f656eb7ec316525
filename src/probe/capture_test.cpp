#include <probe/capture.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace gpudoctor::probe {
namespace {

bool has_entry(const Capture& c, std::string_view path) {
  for (const auto& e : c.entries) {
    if (e.path == path) return true;
  }
  return false;
}

TEST(Capture, KeepsSymlinksFiltersEnvironAndNeverWritesATruncatedCopy) {
  auto dir = sys::TempDir::create("gpudoctor-capture-unit-");
  ASSERT_TRUE(dir);
  const std::string root = dir->path();
  std::filesystem::create_directories(root + "/proc/42");
  std::filesystem::create_directories(root + "/usr/lib");
  std::filesystem::create_symlink("42", root + "/proc/self");
  constexpr char k_environ[] = "PATH=/bin\0API_TOKEN=secret\0CUDA_VISIBLE_DEVICES=0\0";
  std::ofstream(root + "/proc/42/environ", std::ios::binary).write(k_environ, sizeof k_environ - 1);
  std::ofstream(root + "/usr/lib/libtorch_cuda.so") << "ELF";
  ASSERT_EQ(::truncate((root + "/usr/lib/libtorch_cuda.so").c_str(), 64ll << 20), 0);  // 64 MiB, sparse

  auto fs = sys::make_rooted_file_system(root);
  std::set<sys::RecordedAccess> accesses = {{"/proc/self/environ", sys::AccessKind::read},
                                            {"/usr/lib/libtorch_cuda.so", sys::AccessKind::read}};
  auto c = build_capture(*fs, accesses, {});
  EXPECT_TRUE(has_entry(c, "proc/self"));
  EXPECT_TRUE(has_entry(c, "proc/42/environ"));
  for (const auto& e : c.entries) {
    if (e.path == "proc/self") {
      EXPECT_EQ(e.kind, sys::ArchiveEntry::Kind::symlink);
      EXPECT_EQ(e.content, "42");
    }
    if (e.path == "proc/42/environ") {
      EXPECT_EQ(e.content, std::string("PATH=/bin\0CUDA_VISIBLE_DEVICES=0\0", 33));
    }
  }
  EXPECT_FALSE(has_entry(c, "usr/lib/libtorch_cuda.so"));
  ASSERT_EQ(c.skipped.size(), 1u);
  EXPECT_NE(c.skipped[0].find("not copied"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::probe
