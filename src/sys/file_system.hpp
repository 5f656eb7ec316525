// FileSystem: every read of /sys, /proc, /dev, /etc, /usr, /opt, /lib and the home directory goes
// through one of these. Call sites pass the absolute Linux path ("/sys/bus/pci/devices"); a
// RootedFileSystem prefixes its root directory underneath and resolves symlinks *inside* that root,
// so a captured machine tree replays exactly as the live machine (absolute links included).
//
// Every read is bounded: sysfs sizes lie, and a hostile file may be huge. A read that hits its bound
// returns the prefix and sets `truncated`.
//
// A captured tree cannot carry device-node types, owners or modes through git, so a root may hold a
// sidecar `/.gpudoctor/stat` ("PATH TYPE MODE UID GID" per line, TYPE one of c b f d) whose entries
// override what stat() would say for that path. `gpudoctor capture` writes it.
//
// Thread-safety: const methods may be called from several threads at once.
#pragma once

#include <sys/error.hpp>
#include <util/path.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::sys {

inline constexpr std::size_t k_default_read_limit = 1 << 20;  // 1 MiB

enum class FileType { regular, directory, symlink, char_device, block_device, other };

struct FileStat {
  FileType type = FileType::other;
  std::uint32_t mode = 0;  // permission bits (07777)
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::uint64_t size = 0;
};

struct TextFile {
  std::string content;
  bool truncated = false;  // the file was longer than the read limit
};

struct DirEntry {
  std::string name;
  FileType type = FileType::other;  // as readdir reports it; symlinks are FileType::symlink
};

// One file opened for many ranged reads (the fatbin reader's thousands of entry headers in one
// library): the path is resolved and the file opened once, then each read is one pread(2) in
// RootedFileSystem. read() behaves as FileSystem::read_range on the file as opened.
//
// Thread-safety: read() may be called from several threads at once (pread has no file position).
class RangeReader {
 public:
  virtual ~RangeReader() = default;
  virtual std::uint64_t size() const = 0;
  virtual Expected<std::string> read(std::uint64_t offset, std::size_t length) const = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // The file's content, at most `limit` bytes. Follows symlinks (inside the root).
  virtual Expected<TextFile> read_file(std::string_view path, std::size_t limit) const = 0;
  // At most `length` bytes starting at byte `offset` (fewer at the end of the file, none past it).
  // Follows symlinks (inside the root). For large binaries whose headers are all that is needed (a
  // 540 MB libcublasLt.so: its ELF section headers and fatbin headers). The default reads the prefix
  // through read_file; RootedFileSystem overrides it with pread(2).
  virtual Expected<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t length) const;
  // A regular file opened for many read_range calls (not a regular file: invalid). The default
  // forwards every read to this->read_range (so a wrapper that overrides read_range sees each read,
  // and a recording file system records the path); RootedFileSystem keeps one descriptor open.
  virtual Expected<std::unique_ptr<RangeReader>> open_range_reader(std::string_view path) const;
  // The target of a symlink, as stored.
  virtual Expected<std::string> read_link(std::string_view path) const = 0;
  // Entries of a directory, sorted by name, without "." and "..".
  virtual Expected<std::vector<DirEntry>> list_dir(std::string_view path) const = 0;
  // Follows symlinks (inside the root).
  virtual Expected<FileStat> stat(std::string_view path) const = 0;
  // Does not follow a final symlink.
  virtual Expected<FileStat> lstat(std::string_view path) const = 0;
  // The absolute Linux path after every symlink is resolved inside the root.
  virtual Expected<std::string> real_path(std::string_view path) const = 0;
  // The host directory this file system is rooted at ("/" for the live machine).
  virtual const std::string& root() const = 0;

  // Convenience on top of the primitives.
  Expected<std::string> read_text(std::string_view path, std::size_t limit = k_default_read_limit) const;
  // The first line, trimmed of surrounding white space (sysfs attributes).
  Expected<std::string> read_attr(std::string_view path) const;
  bool exists(std::string_view path) const;
  bool is_live() const { return root() == "/"; }
};

// The real file system under `root` (an existing directory; "/" for the live machine).
std::unique_ptr<FileSystem> make_rooted_file_system(std::string root);

// Forwards every call to another FileSystem; override one method to inject a fault in a test.
class FileSystemWrapper : public FileSystem {
 public:
  explicit FileSystemWrapper(const FileSystem& target) : m_target(target) {}
  Expected<TextFile> read_file(std::string_view path, std::size_t limit) const override {
    return m_target.read_file(path, limit);
  }
  Expected<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t length) const override {
    return m_target.read_range(path, offset, length);
  }
  Expected<std::string> read_link(std::string_view path) const override { return m_target.read_link(path); }
  Expected<std::vector<DirEntry>> list_dir(std::string_view path) const override {
    return m_target.list_dir(path);
  }
  Expected<FileStat> stat(std::string_view path) const override { return m_target.stat(path); }
  Expected<FileStat> lstat(std::string_view path) const override { return m_target.lstat(path); }
  Expected<std::string> real_path(std::string_view path) const override { return m_target.real_path(path); }
  const std::string& root() const override { return m_target.root(); }

 protected:
  const FileSystem& target() const { return m_target; }

 private:
  const FileSystem& m_target;
};

}  // namespace gpudoctor::sys
