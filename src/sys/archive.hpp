// Machine-tree archives (.tar.gz) through libarchive: writing the tree `capture` builds, and
// unpacking one for `check --root FILE.tar.gz`. Extraction is hardened: no absolute paths, no "..",
// no device nodes, no owners, bounded total size, links kept as links (they are resolved inside the
// root later, never by the kernel outside it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sys/error.hpp>

namespace gpudoctor::sys {

// Part of a file captured without the rest: `data` stands at byte `offset`.
struct FilePiece {
  std::uint64_t offset = 0;
  std::string data;
};

struct ArchiveEntry {
  enum class Kind { file, directory, symlink };
  std::string path;  // relative, no leading '/'
  Kind kind = Kind::file;
  std::string content;      // file content, or the symlink target
  std::uint32_t mode = 0644;
  // A file too large to copy whole: when `pieces` is non-empty the entry is `sparse_size` bytes,
  // zero except for the pieces (sorted, not overlapping). Zeros cost next to nothing gzipped, and
  // extraction writes them as holes.
  std::vector<FilePiece> pieces;
  std::uint64_t sparse_size = 0;
};

Expected<bool> write_tar_gz(const std::string& file, const std::vector<ArchiveEntry>& entries);

// Extraction limits: bytes of data written (zero blocks become holes and do not count), the files'
// apparent size (a bound on the time spent inflating zeros), and the entries read, skipped ones
// included (each costs an inode and time; a capture of a big machine has a few thousand).
struct ExtractLimits {
  std::uint64_t data_bytes = 512ull << 20;
  std::uint64_t apparent_bytes = 64ull << 30;
  std::size_t entries = 50'000;
};

// Unpacks `file` into the existing directory `dir`. Permissions are kept but for the setuid,
// setgid and sticky bits, which never are; every directory stays readable, writable and searchable
// by its owner, so the tree can always be removed.
Expected<bool> extract_archive(const std::string& file, const std::string& dir, ExtractLimits limits = {});

// A fresh private directory under $TMPDIR (or /tmp), removed with its contents by the destructor,
// read-only directories inside it included.
class TempDir {
 public:
  static Expected<TempDir> create(std::string_view prefix);
  TempDir(TempDir&& other) noexcept : m_path(std::move(other.m_path)) { other.m_path.clear(); }
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const { return m_path; }

 private:
  explicit TempDir(std::string path) : m_path(std::move(path)) {}
  std::string m_path;
};

}  // namespace gpudoctor::sys
