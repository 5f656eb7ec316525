#include <sys/archive.hpp>

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

}  // namespace
}  // namespace gpudoctor::sys
