// RecordingFileSystem: forwards to another FileSystem and remembers every path asked for, so that
// `gpudoctor capture` can copy exactly the files the probes read (ninja's VirtualFileSystem and
// hwloc-gather-topology follow the same idea). It also remembers which bytes of each file were
// read, so that a library too large to copy whole can be captured as just those bytes.
// Thread-safety: recording is serialised; safe to use from parallel probes.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <sys/file_system.hpp>

namespace gpudoctor::sys {

enum class AccessKind { read, list, link, stat };

struct RecordedAccess {
  std::string path;
  AccessKind kind;
  auto operator<=>(const RecordedAccess&) const = default;
};

struct ByteRange {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  auto operator<=>(const ByteRange&) const = default;
};

class RecordingFileSystem final : public FileSystemWrapper {
 public:
  using FileSystemWrapper::FileSystemWrapper;

  Expected<TextFile> read_file(std::string_view path, std::size_t limit) const override;
  Expected<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t length) const override;
  Expected<std::string> read_link(std::string_view path) const override;
  Expected<std::vector<DirEntry>> list_dir(std::string_view path) const override;
  Expected<FileStat> stat(std::string_view path) const override;
  Expected<FileStat> lstat(std::string_view path) const override;
  Expected<std::string> real_path(std::string_view path) const override;

  std::set<RecordedAccess> accesses() const;
  // Per path as asked for, the byte ranges read (read_file counts as [0, limit)), sorted, with
  // overlapping and touching ranges merged.
  std::map<std::string, std::vector<ByteRange>> ranges() const;

 private:
  void record(std::string_view path, AccessKind kind) const;
  void record_range(std::string_view path, ByteRange range) const;
  mutable std::mutex m_mutex;
  mutable std::set<RecordedAccess> m_accesses;
  mutable std::map<std::string, std::set<ByteRange>> m_ranges;
};

}  // namespace gpudoctor::sys
