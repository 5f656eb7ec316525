#include <sys/file_system.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <sys/archive.hpp>

namespace gpudoctor::sys {
namespace {

namespace fs = std::filesystem;

class RootedFileSystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = TempDir::create("gpudoctor-fs-test-");
    ASSERT_TRUE(dir);
    m_dir.emplace(std::move(dir.value()));
    root = m_dir->path();
  }
  void write(const std::string& path, const std::string& content) {
    fs::create_directories(fs::path(root + path).parent_path());
    std::ofstream(root + path, std::ios::binary) << content;
  }
  void link(const std::string& target, const std::string& path) {
    fs::create_directories(fs::path(root + path).parent_path());
    fs::create_symlink(target, root + path);
  }
  std::string root;

 private:
  std::optional<TempDir> m_dir;
};

TEST_F(RootedFileSystemTest, ReadsFilesUnderTheRoot) {
  write("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
  auto fsys = make_rooted_file_system(root);
  auto v = fsys->read_attr("/sys/bus/pci/devices/0000:01:00.0/vendor");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, "0x10de");
}

TEST_F(RootedFileSystemTest, AbsoluteSymlinksStayInsideTheRoot) {
  write("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14", "ELF");
  link("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
  auto fsys = make_rooted_file_system(root);
  auto real = fsys->real_path("/usr/lib/x86_64-linux-gnu/libcuda.so.1");
  ASSERT_TRUE(real) << real.error().message;
  EXPECT_EQ(*real, "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14");
  EXPECT_EQ(fsys->read_text("/usr/lib/x86_64-linux-gnu/libcuda.so.1").value_or(""), "ELF");
}

TEST_F(RootedFileSystemTest, DotDotCannotEscapeTheRoot) {
  write("/etc/secret", "inside");
  link("../../../../../../../../etc/secret", "/a/b/escape");
  auto fsys = make_rooted_file_system(root);
  EXPECT_EQ(fsys->read_text("/a/b/escape").value_or(""), "inside");
}

TEST_F(RootedFileSystemTest, SymlinkLoopIsAnErrorNotAHang) {
  link("/loop/b", "/loop/a");
  link("/loop/a", "/loop/b");
  auto fsys = make_rooted_file_system(root);
  auto r = fsys->read_text("/loop/a");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::loop);
  EXPECT_FALSE(fsys->stat("/loop/a"));
}

TEST_F(RootedFileSystemTest, BoundedReadOfAHugeFile) {
  write("/sys/class/x", "");
  ASSERT_EQ(::truncate((root + "/sys/class/x").c_str(), 1ll << 30), 0);  // 1 GiB, sparse
  auto fsys = make_rooted_file_system(root);
  auto f = fsys->read_file("/sys/class/x", 4096);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->content.size(), 4096u);
  EXPECT_TRUE(f->truncated);
}

TEST_F(RootedFileSystemTest, RangeReaderReadsAsReadRangeDoesThroughOneOpenFile) {
  write("/usr/lib/libx.so.1", "0123456789");
  link("libx.so.1", "/usr/lib/libx.so");
  auto fsys = make_rooted_file_system(root);
  auto reader = fsys->open_range_reader("/usr/lib/libx.so");
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_EQ((*reader)->size(), 10u);
  EXPECT_EQ((*reader)->read(2, 3).value_or("?"), "234");
  EXPECT_EQ((*reader)->read(8, 100).value_or("?"), "89");  // fewer at the end
  EXPECT_EQ((*reader)->read(20, 4).value_or("?"), "");     // none past it
  // The file stays open: removing its name does not take it away from the reader.
  fs::remove(root + "/usr/lib/libx.so.1");
  EXPECT_EQ((*reader)->read(0, 4).value_or("?"), "0123");
  EXPECT_FALSE(fsys->read_range("/usr/lib/libx.so", 0, 4));
}

TEST_F(RootedFileSystemTest, RangeReaderRefusesWhatIsNotARegularFile) {
  fs::create_directories(root + "/proc");
  ASSERT_EQ(::mkfifo((root + "/proc/fifo").c_str(), 0644), 0);
  auto fsys = make_rooted_file_system(root);
  auto fifo = fsys->open_range_reader("/proc/fifo");
  ASSERT_FALSE(fifo);
  EXPECT_EQ(fifo.error().code, ErrorCode::invalid);
  EXPECT_EQ(fsys->open_range_reader("/missing").error().code, ErrorCode::not_found);
}

// A wrapper that fails ranged reads: the default reader must go through read_range, so the fault
// reaches whoever reads through a reader (the ELF and fatbin readers).
class FailingRanges : public FileSystemWrapper {
 public:
  using FileSystemWrapper::FileSystemWrapper;
  Expected<std::string> read_range(std::string_view path, std::uint64_t, std::size_t) const override {
    return Error{ErrorCode::io, "read " + std::string(path) + ": injected"};
  }
};

TEST_F(RootedFileSystemTest, DefaultRangeReaderForwardsToReadRange) {
  write("/usr/lib/libx.so.1", "0123456789");
  auto fsys = make_rooted_file_system(root);
  FailingRanges failing(*fsys);
  auto reader = failing.open_range_reader("/usr/lib/libx.so.1");
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_EQ((*reader)->size(), 10u);
  auto r = (*reader)->read(0, 4);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("injected"), std::string::npos);
}

TEST_F(RootedFileSystemTest, FifoIsRefusedWithoutBlocking) {
  fs::create_directories(root + "/proc");
  ASSERT_EQ(::mkfifo((root + "/proc/modules").c_str(), 0644), 0);
  auto fsys = make_rooted_file_system(root);
  auto r = fsys->read_text("/proc/modules");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid);
}

TEST_F(RootedFileSystemTest, MissingFileIsNotFound) {
  auto fsys = make_rooted_file_system(root);
  auto r = fsys->read_text("/proc/driver/nvidia/version");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::not_found);
}

TEST_F(RootedFileSystemTest, StatSidecarOverridesTypeModeAndOwner) {
  write("/dev/nvidia0", "");
  write("/.gpudoctor/stat", "/dev/nvidia0 c 0660 0 44\nbogus line\n/dev/x z 1 2 3\n");
  auto fsys = make_rooted_file_system(root);
  auto st = fsys->stat("/dev/nvidia0");
  ASSERT_TRUE(st);
  EXPECT_EQ(st->type, FileType::char_device);
  EXPECT_EQ(st->mode, 0660u);
  EXPECT_EQ(st->gid, 44u);
}

// A tree whose /.gpudoctor is a symlink out of it must not take device modes from outside.
TEST_F(RootedFileSystemTest, StatSidecarIsReadInsideTheRoot) {
  auto outside = TempDir::create("gpudoctor-fs-outside-");
  ASSERT_TRUE(outside);
  fs::create_directories(outside->path() + "/.gpudoctor");
  std::ofstream(outside->path() + "/.gpudoctor/stat") << "/dev/nvidia0 c 0666 0 0\n";
  write("/dev/nvidia0", "");
  for (const std::string& target : {outside->path() + "/.gpudoctor", "../../../../../../.." + outside->path() + "/.gpudoctor"}) {
    SCOPED_TRACE(target);
    fs::remove(root + "/.gpudoctor");
    link(target, "/.gpudoctor");
    auto fsys = make_rooted_file_system(root);
    auto st = fsys->stat("/dev/nvidia0");
    ASSERT_TRUE(st);
    EXPECT_EQ(st->type, FileType::regular);
  }
}

TEST_F(RootedFileSystemTest, ListDirIsSortedAndSkipsDots) {
  write("/dev/b", "");
  write("/dev/a", "");
  auto fsys = make_rooted_file_system(root);
  auto entries = fsys->list_dir("/dev");
  ASSERT_TRUE(entries);
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].name, "a");
  EXPECT_EQ((*entries)[1].name, "b");
}

TEST_F(RootedFileSystemTest, RelativePathsAreRejected) {
  auto fsys = make_rooted_file_system(root);
  EXPECT_FALSE(fsys->read_text("etc/passwd"));
}

TEST(PathHelpers, BaseAndDirName) {
  EXPECT_EQ(util::base_name("/a/b/c"), "c");
  EXPECT_EQ(util::base_name("../../bus/pci/drivers/nvidia"), "nvidia");
  EXPECT_EQ(util::dir_name("/a/b/c"), "/a/b");
  EXPECT_EQ(util::dir_name("/a"), "/");
  EXPECT_EQ(util::join_path("/dev", "nvidia0"), "/dev/nvidia0");
}

}  // namespace
}  // namespace gpudoctor::sys
