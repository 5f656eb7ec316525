#include <sys/recording_file_system.hpp>

namespace gpudoctor::sys {

void RecordingFileSystem::record(std::string_view path, AccessKind kind) const {
  std::lock_guard lock(m_mutex);
  m_accesses.insert({std::string(path), kind});
}

Expected<TextFile> RecordingFileSystem::read_file(std::string_view path, std::size_t limit) const {
  record(path, AccessKind::read);
  return target().read_file(path, limit);
}
Expected<std::string> RecordingFileSystem::read_range(std::string_view path, std::uint64_t offset,
                                                      std::size_t length) const {
  record(path, AccessKind::read);
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

std::set<RecordedAccess> RecordingFileSystem::accesses() const {
  std::lock_guard lock(m_mutex);
  return m_accesses;
}

}  // namespace gpudoctor::sys
