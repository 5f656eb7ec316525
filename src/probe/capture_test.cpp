#include <probe/capture.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <probe/fatbin/fatbin_reader.hpp>

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

// A library past the copy bound keeps exactly the bytes the probes read, at their offsets: through
// the real archive writer and extractor, it replays with the same bytes where they were read, the
// same size, and holes (not written zeros) elsewhere.
TEST(Capture, LargeFileKeepsTheRangesReadAndReplaysThemSparse) {
  auto dir = sys::TempDir::create("gpudoctor-capture-unit-");
  ASSERT_TRUE(dir);
  const std::string root = dir->path() + "/live";
  std::filesystem::create_directories(root + "/usr/lib");
  const std::string lib = root + "/usr/lib/libcublasLt.so.13";
  constexpr std::uint64_t k_size = 48ull << 20;
  const std::string head = "\x7f" "ELF header and the section table start";
  const std::string fatbin = "fatbin headers somewhere in the middle";
  {
    std::ofstream out(lib, std::ios::binary);
    out << head;
    out.seekp(40 << 20);
    out << fatbin;
  }
  ASSERT_EQ(::truncate(lib.c_str(), static_cast<off_t>(k_size)), 0);
  std::filesystem::create_symlink("libcublasLt.so.13", root + "/usr/lib/libcublasLt.so");

  auto live = sys::make_rooted_file_system(root);
  sys::RecordingFileSystem recorder(*live);
  ASSERT_TRUE(recorder.read_range("/usr/lib/libcublasLt.so", 0, 16));     // through the link
  ASSERT_TRUE(recorder.read_range("/usr/lib/libcublasLt.so", 8, 64));     // overlaps: merged
  ASSERT_TRUE(recorder.read_range("/usr/lib/libcublasLt.so", 40 << 20, 4096));
  auto ranges = recorder.ranges();
  ASSERT_EQ(ranges["/usr/lib/libcublasLt.so"].size(), 2u);
  EXPECT_EQ(ranges["/usr/lib/libcublasLt.so"][0], (sys::ByteRange{0, 72}));

  auto c = build_capture(*live, recorder.accesses(), {}, ranges);
  ASSERT_EQ(c.partial.size(), 1u);
  EXPECT_EQ(c.partial[0].path, "/usr/lib/libcublasLt.so.13");
  EXPECT_EQ(c.partial[0].size, k_size);
  EXPECT_TRUE(c.skipped.empty()) << c.skipped.front();

  const std::string archive = dir->path() + "/capture.tar.gz";
  ASSERT_TRUE(sys::write_tar_gz(archive, c.entries));
  EXPECT_LT(std::filesystem::file_size(archive), 1u << 20) << "48 MiB of zeros must compress away";
  const std::string replay = dir->path() + "/replay";
  std::filesystem::create_directories(replay);
  auto x = sys::extract_archive(archive, replay);
  ASSERT_TRUE(x) << x.error().message;

  auto fs = sys::make_rooted_file_system(replay);
  auto st = fs->stat("/usr/lib/libcublasLt.so");
  ASSERT_TRUE(st);
  EXPECT_EQ(st->size, k_size);
  EXPECT_EQ(fs->read_range("/usr/lib/libcublasLt.so", 0, head.size()).value_or(""), head);
  EXPECT_EQ(fs->read_range("/usr/lib/libcublasLt.so", 40 << 20, fatbin.size()).value_or(""), fatbin);
  EXPECT_EQ(fs->read_range("/usr/lib/libcublasLt.so", 20 << 20, 4).value_or("x"), std::string(4, '\0'));
  struct stat host {};
  ASSERT_EQ(::stat((replay + "/usr/lib/libcublasLt.so.13").c_str(), &host), 0);
  EXPECT_LT(static_cast<std::uint64_t>(host.st_blocks) * 512, 4u << 20) << "extracted with holes";
}

// The real thing: the toolkit's 540 MB libcublasLt, its fatbin headers read through a recording file
// system, captured, archived, extracted and read again: the same kernels, from a small archive.
TEST(Capture, ToolkitCublasLtReplaysTheSameKernelsFromItsReadRanges) {
  const std::string lib = "/usr/local/cuda/lib64/libcublasLt.so.13";
  if (!std::filesystem::exists(lib)) GTEST_SKIP() << lib << " is not on this machine";
  auto live = sys::make_rooted_file_system("/");
  sys::RecordingFileSystem recorder(*live);
  auto before = fatbin::read_fatbin(recorder, lib);
  ASSERT_TRUE(before) << before.error().message;
  ASSERT_GT(before->entries.size(), 100u);
  std::set<sys::RecordedAccess> only_lib;
  for (const auto& a : recorder.accesses()) {
    if (a.path == lib) only_lib.insert(a);
  }
  auto c = build_capture(*live, only_lib, {}, recorder.ranges());
  ASSERT_EQ(c.partial.size(), 1u) << (c.skipped.empty() ? "" : c.skipped.front());
  auto dir = sys::TempDir::create("gpudoctor-capture-unit-");
  ASSERT_TRUE(dir);
  const std::string archive = dir->path() + "/capture.tar.gz";
  ASSERT_TRUE(sys::write_tar_gz(archive, c.entries));
  EXPECT_LT(std::filesystem::file_size(archive), 16u << 20);
  const std::string replay = dir->path() + "/replay";
  std::filesystem::create_directories(replay);
  ASSERT_TRUE(sys::extract_archive(archive, replay));
  auto after = fatbin::read_fatbin(*sys::make_rooted_file_system(replay), lib);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(after->entries, before->entries);
  EXPECT_EQ(after->cubin_names(), before->cubin_names());
}

TEST(Capture, LargeFileWithTooMuchReadIsLeftOut) {
  auto dir = sys::TempDir::create("gpudoctor-capture-unit-");
  ASSERT_TRUE(dir);
  std::filesystem::create_directories(dir->path() + "/lib");
  std::ofstream(dir->path() + "/lib/big.so") << "x";
  ASSERT_EQ(::truncate((dir->path() + "/lib/big.so").c_str(), 200ll << 20), 0);
  auto fs = sys::make_rooted_file_system(dir->path());
  std::set<sys::RecordedAccess> accesses = {{"/lib/big.so", sys::AccessKind::read}};
  std::map<std::string, std::vector<sys::ByteRange>> ranges = {{"/lib/big.so", {{0, 100ull << 20}}}};
  auto c = build_capture(*fs, accesses, {}, ranges);
  EXPECT_FALSE(has_entry(c, "lib/big.so"));
  ASSERT_EQ(c.skipped.size(), 1u);
  EXPECT_NE(c.skipped[0].find("100 MiB of it were read"), std::string::npos) << c.skipped[0];
}

TEST(Capture, AccountFilesKeepOnlyTheLinesTheChecksRead) {
  const std::string passwd =
      "root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice Liddell,,,:/home/alice:/bin/zsh\n"
      "bob:x:1001:1001:Bob:/home/bob:/bin/bash\n";
  EXPECT_EQ(filter_passwd(passwd, 1000u), "alice:x:1000:1000:::\n");
  EXPECT_EQ(filter_passwd(passwd, std::nullopt), "");
  EXPECT_EQ(filter_passwd(passwd, 4242u), "");
  const std::string group = "root:x:0:\nvideo:x:44:alice,bob\nrender:x:109:alice\nbob:x:1001:\n";
  EXPECT_EQ(filter_group(group, {44, 109}), "video:x:44:\nrender:x:109:\n");
}

TEST(Capture, CommandLinesAndPipUrlsLoseTheirCredentials) {
  auto dir = sys::TempDir::create("gpudoctor-capture-secrets-");
  ASSERT_TRUE(dir);
  const std::string root = dir->path();
  std::filesystem::create_directories(root + "/proc/77");
  std::filesystem::create_directories(root + "/site/torch-2.5.1.dist-info");
  std::filesystem::create_directories(root + "/etc");
  std::ofstream(root + "/proc/77/cmdline") << std::string("vllm\0serve\0--api-key\0s3cr3t-value\0", 34);
  std::ofstream(root + "/site/torch-2.5.1.dist-info/direct_url.json")
      << R"({"url": "https://bob:tok3n@pkgs.example.com/torch.whl"})";
  std::ofstream(root + "/etc/passwd") << "root:x:0:0:root:/root:/bin/bash\nbob:x:1001:1001:Bob B:/home/bob:/bin/sh\n";
  auto fs = sys::make_rooted_file_system(root);
  std::set<sys::RecordedAccess> accesses = {{"/proc/77/cmdline", sys::AccessKind::read},
                                            {"/site/torch-2.5.1.dist-info/direct_url.json", sys::AccessKind::read},
                                            {"/etc/passwd", sys::AccessKind::read}};
  CaptureScope scope;
  scope.uid = 0;
  auto c = build_capture(*fs, accesses, {}, {}, scope);
  std::string all;
  for (const auto& e : c.entries) all += e.content;
  EXPECT_EQ(all.find("s3cr3t-value"), std::string::npos);
  EXPECT_EQ(all.find("tok3n"), std::string::npos);
  EXPECT_EQ(all.find("bob"), std::string::npos) << "another account's passwd line";
  EXPECT_NE(all.find("--api-key"), std::string::npos);
  EXPECT_NE(all.find("pkgs.example.com/torch.whl"), std::string::npos);
  EXPECT_NE(all.find("root:x:0:0"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::probe
