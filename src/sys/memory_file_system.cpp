#include <sys/memory_file_system.hpp>

#include <algorithm>

namespace gpudoctor::sys {
namespace {

class MemoryFileSystem final : public FileSystem {
 public:
  explicit MemoryFileSystem(const std::map<std::string, std::string>& files) : m_files(files.begin(), files.end()) {}

  Expected<TextFile> read_file(std::string_view path, std::size_t limit) const override {
    auto f = find(path);
    if (!f) return f.error();
    TextFile out;
    out.content = (*f)->substr(0, limit);
    out.truncated = (*f)->size() > limit;
    return out;
  }

  Expected<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t length) const override {
    auto f = find(path);
    if (!f) return f.error();
    if (offset >= (*f)->size()) return std::string();
    return (*f)->substr(static_cast<std::size_t>(offset), length);
  }

  Expected<std::string> read_link(std::string_view path) const override {
    return Error{ErrorCode::invalid, "readlink " + std::string(path) + ": not a symlink"};
  }

  Expected<std::vector<DirEntry>> list_dir(std::string_view path) const override {
    std::string prefix(path);
    if (prefix.back() != '/') prefix += '/';
    std::map<std::string, FileType> names;
    for (const auto& [p, content] : m_files) {
      if (!p.starts_with(prefix)) continue;
      auto rest = std::string_view(p).substr(prefix.size());
      auto slash = rest.find('/');
      names.emplace(std::string(rest.substr(0, slash)), slash == std::string_view::npos ? FileType::regular : FileType::directory);
    }
    if (names.empty()) return Error{ErrorCode::not_found, "opendir " + std::string(path) + ": no such directory"};
    std::vector<DirEntry> out;
    for (const auto& [name, type] : names) out.push_back({name, type});
    return out;
  }

  Expected<FileStat> stat(std::string_view path) const override {
    if (auto it = m_files.find(path); it != m_files.end()) {
      return FileStat{FileType::regular, 0644, 0, 0, it->second.size()};
    }
    if (list_dir(path)) return FileStat{FileType::directory, 0755, 0, 0, 0};
    return Error{ErrorCode::not_found, "stat " + std::string(path) + ": no such file"};
  }
  Expected<FileStat> lstat(std::string_view path) const override { return stat(path); }
  Expected<std::string> real_path(std::string_view path) const override {
    auto st = stat(path);
    if (!st) return st.error();
    return std::string(path);
  }
  const std::string& root() const override { return m_root; }

 private:
  Expected<const std::string*> find(std::string_view path) const {
    auto it = m_files.find(path);
    if (it == m_files.end()) return Error{ErrorCode::not_found, "open " + std::string(path) + ": no such file"};
    return &it->second;
  }

  std::map<std::string, std::string, std::less<>> m_files;
  std::string m_root = "memory:";
};

}  // namespace

std::unique_ptr<FileSystem> make_memory_file_system(std::map<std::string, std::string> files) {
  return std::make_unique<MemoryFileSystem>(files);
}

}  // namespace gpudoctor::sys
