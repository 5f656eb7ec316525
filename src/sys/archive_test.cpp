#include <sys/archive.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace gpudoctor::sys {
namespace {

ArchiveEntry file(std::string path, std::string content) {
  ArchiveEntry e;
  e.path = std::move(path);
  e.content = std::move(content);
  return e;
}

ArchiveEntry sparse(std::string path, std::uint64_t size, std::vector<FilePiece> pieces) {
  ArchiveEntry e;
  e.path = std::move(path);
  e.sparse_size = size;
  e.pieces = std::move(pieces);
  return e;
}

class ArchiveLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    auto d = TempDir::create("gpudoctor-archive-unit-");
    ASSERT_TRUE(d);
    m_dir.emplace(std::move(*d));
    std::filesystem::create_directories(out());
  }
  std::string archive() const { return m_dir->path() + "/a.tar.gz"; }
  std::string out() const { return m_dir->path() + "/out"; }
  std::optional<TempDir> m_dir;
};

TEST_F(ArchiveLimits, DataPastTheLimitIsRefused) {
  ASSERT_TRUE(write_tar_gz(archive(), {file("a", std::string(3 << 20, 'x'))}));
  auto r = extract_archive(archive(), out(), {1 << 20, 1ull << 30});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::too_large);
  EXPECT_NE(r.error().message.find("MiB of data"), std::string::npos) << r.error().message;
}

TEST_F(ArchiveLimits, ZerosAreHolesAndDoNotCountAsData) {
  ASSERT_TRUE(write_tar_gz(archive(), {sparse("lib.so", 100 << 20, {{0, "ELF"}, {(60 << 20) + 5, "fatbin"}})}));
  ASSERT_TRUE(extract_archive(archive(), out(), {1 << 20, 1ull << 30}));
  EXPECT_EQ(std::filesystem::file_size(out() + "/lib.so"), 100u << 20);
  std::ifstream in(out() + "/lib.so", std::ios::binary);
  std::string head(3, '\0');
  in.read(head.data(), 3);
  EXPECT_EQ(head, "ELF");
  in.seekg((60 << 20) + 5);
  std::string mid(6, '\0');
  in.read(mid.data(), 6);
  EXPECT_EQ(mid, "fatbin");
}

TEST_F(ArchiveLimits, ApparentSizePastTheLimitIsRefused) {
  // A "zip bomb" of zeros still costs the time to inflate it: bounded by the apparent size.
  ASSERT_TRUE(write_tar_gz(archive(), {sparse("bomb", 80 << 20, {{0, "x"}})}));
  auto r = extract_archive(archive(), out(), {1 << 20, 64 << 20});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("in all"), std::string::npos) << r.error().message;
}

TEST_F(ArchiveLimits, OverlappingPiecesAreAnErrorNotACorruptArchive) {
  auto w = write_tar_gz(archive(), {sparse("x", 100, {{10, "abcdef"}, {12, "zz"}})});
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("overlap"), std::string::npos) << w.error().message;
}

ArchiveEntry with_mode(ArchiveEntry e, ArchiveEntry::Kind kind, std::uint32_t mode) {
  e.kind = kind;
  e.mode = mode;
  return e;
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
}

TEST_F(ArchiveLimits, SetuidSetgidAndStickyBitsAreNeverRestored) {
  ASSERT_TRUE(write_tar_gz(archive(), {with_mode(file("bin", ""), ArchiveEntry::Kind::directory, 01777),
                                      with_mode(file("bin/su", "#!/bin/sh\n"), ArchiveEntry::Kind::file, 04755),
                                      with_mode(file("bin/wall", "#!/bin/sh\n"), ArchiveEntry::Kind::file, 02755)}));
  ASSERT_TRUE(extract_archive(archive(), out()));
  EXPECT_EQ(mode_of(out() + "/bin/su"), 0755u);
  EXPECT_EQ(mode_of(out() + "/bin/wall"), 0755u);
  EXPECT_EQ(mode_of(out() + "/bin"), 0777u);
}

TEST_F(ArchiveLimits, ReadOnlyDirectoriesStayWritableByTheirOwner) {
  ASSERT_TRUE(write_tar_gz(archive(), {with_mode(file("ro", ""), ArchiveEntry::Kind::directory, 0555),
                                      file("ro/inside", "x")}));
  ASSERT_TRUE(extract_archive(archive(), out()));
  EXPECT_EQ(mode_of(out() + "/ro"), 0755u);
  EXPECT_TRUE(std::filesystem::exists(out() + "/ro/inside"));
}

TEST_F(ArchiveLimits, EntryCountPastTheLimitIsRefused) {
  std::vector<ArchiveEntry> many;
  for (int i = 0; i < 60; ++i) many.push_back(file("f" + std::to_string(i), ""));
  ASSERT_TRUE(write_tar_gz(archive(), many));
  ExtractLimits limits;
  limits.entries = 50;
  auto r = extract_archive(archive(), out(), limits);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::too_large);
  EXPECT_NE(r.error().message.find("more than 50 entries"), std::string::npos) << r.error().message;
  limits.entries = 60;
  EXPECT_TRUE(extract_archive(archive(), out(), limits));
}

// As a non-root user, remove_all cannot empty a directory without write permission: a temporary
// tree holding one must still go. Run as "nobody" in a child when the test runs as root.
TEST(TempDirRemoval, ReadOnlyDirectoriesInsideAreRemoved) {
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setenv("TMPDIR", "/tmp", 1);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
    std::string path;
    {
      auto d = TempDir::create("gpudoctor-ro-");
      if (!d) ::_exit(4);
      path = d->path();
      std::filesystem::create_directories(path + "/a/b");
      std::ofstream(path + "/a/b/file") << "x";
      ::chmod((path + "/a/b").c_str(), 0500);
      ::chmod((path + "/a").c_str(), 0);
    }
    ::_exit(std::filesystem::exists(path) ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: the tree was left behind; 3: could not become nobody; 4: no temp dir";
}

}  // namespace
}  // namespace gpudoctor::sys
