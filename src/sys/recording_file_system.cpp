#include <sys/recording_file_system.hpp>

#include <algorithm>

namespace gpudoctor::sys {

void RecordingFileSystem::record(std::string_view path, AccessKind kind) const {
  std::lock_guard lock(m_mutex);
  m_accesses.insert({std::string(path), kind});
}

void RecordingFileSystem::record_range(std::string_view path, ByteRange range) const {
  std::lock_guard lock(m_mutex);
  m_ranges[std::string(path)].insert(range);
}

Expected<TextFile> RecordingFileSystem::read_file(std::string_view path, std::size_t limit) const {
  record(path, AccessKind::read);
  record_range(path, {0, limit});
  return target().read_file(path, limit);
}
Expected<std::string> RecordingFileSystem::read_range(std::string_view path, std::uint64_t offset,
                                                      std::size_t length) const {
  record(path, AccessKind::read);
  record_range(path, {offset, length});
  return target().read_range(path, offset, length);
}
Expected<std::string> RecordingFileSystem::read_link(std::string_view path) const {
  record(path, AccessKind::link);
  return target().read_link(path);
}
Expected<std::vector<DirEntry>> RecordingFileSystem::list_dir(std::string_view path) const {
  record(path, AccessKind::list);
  return target().list_dir(path);
}
Expected<FileStat> RecordingFileSystem::stat(std::string_view path) const {
  record(path, AccessKind::stat);
  return target().stat(path);
}
Expected<FileStat> RecordingFileSystem::lstat(std::string_view path) const {
  record(path, AccessKind::stat);
  return target().lstat(path);
}
Expected<std::string> RecordingFileSystem::real_path(std::string_view path) const {
  record(path, AccessKind::stat);
  return target().real_path(path);
}

std::map<std::string, std::vector<ByteRange>> RecordingFileSystem::ranges() const {
  std::lock_guard lock(m_mutex);
  std::map<std::string, std::vector<ByteRange>> out;
  for (const auto& [path, set] : m_ranges) {
    auto& merged = out[path];
    for (const auto& r : set) {  // sorted by offset
      if (r.length == 0) continue;
      if (!merged.empty() && r.offset <= merged.back().offset + merged.back().length) {
        auto end = std::max(merged.back().offset + merged.back().length, r.offset + r.length);
        merged.back().length = end - merged.back().offset;
      } else {
        merged.push_back(r);
      }
    }
  }
  return out;
}

std::set<RecordedAccess> RecordingFileSystem::accesses() const {
  std::lock_guard lock(m_mutex);
  return m_accesses;
}

}  // namespace gpudoctor::sys
