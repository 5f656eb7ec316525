// The real file system under a root directory. For the live machine ("/") paths go to the kernel
// unchanged. For a captured tree every symlink is resolved here, component by component, so that an
// absolute link (/usr/lib/x86_64-linux-gnu/libcuda.so.1 -> /usr/lib/...) stays inside the tree, and
// a link cycle ends with ELOOP after 40 hops as the kernel's own resolver does (path_resolution(7)).
#include <sys/file_system.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <map>

namespace gpudoctor::sys {
namespace {

constexpr int k_max_symlink_hops = 40;
// The default read_range reads the whole prefix; past this it refuses rather than allocate gigabytes.
constexpr std::uint64_t k_max_prefix_read = std::uint64_t{1} << 30;

FileType type_from_mode(mode_t mode) {
  if (S_ISREG(mode)) return FileType::regular;
  if (S_ISDIR(mode)) return FileType::directory;
  if (S_ISLNK(mode)) return FileType::symlink;
  if (S_ISCHR(mode)) return FileType::char_device;
  if (S_ISBLK(mode)) return FileType::block_device;
  return FileType::other;
}

FileStat to_file_stat(const struct stat& st) {
  return FileStat{type_from_mode(st.st_mode), static_cast<std::uint32_t>(st.st_mode & 07777),
                  static_cast<std::uint32_t>(st.st_uid), static_cast<std::uint32_t>(st.st_gid),
                  static_cast<std::uint64_t>(st.st_size)};
}

std::vector<std::string> split_components(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;
    std::size_t j = i;
    while (j < path.size() && path[j] != '/') ++j;
    if (j > i) parts.emplace_back(path.substr(i, j - i));
    i = j;
  }
  return parts;
}

std::string linux_path(const std::vector<std::string>& parts) {
  if (parts.empty()) return "/";
  std::string out;
  for (const auto& p : parts) {
    out += '/';
    out += p;
  }
  return out;
}

enum class FollowLast { yes, no };

// At most `length` bytes at `offset` of the open file `fd` of `size` bytes (fewer at its end).
Expected<std::string> pread_range(int fd, std::uint64_t size, std::string_view path, std::uint64_t offset,
                                  std::size_t length) {
  std::string out;
  if (offset < size) out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(length, size - offset)));
  std::size_t used = 0;
  while (used < out.size()) {
    ssize_t n = ::pread(fd, out.data() + used, out.size() - used, static_cast<off_t>(offset + used));
    if (n < 0) {
      int err = errno;
      if (err == EINTR) continue;
      return error_from_errno(err, "read " + std::string(path));
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  out.resize(used);
  return out;
}

// Owns the descriptor; the size is the one fstat(2) gave at open, as for read_range.
class DescriptorRangeReader final : public RangeReader {
 public:
  DescriptorRangeReader(int fd, std::uint64_t size, std::string path) : m_fd(fd), m_size(size), m_path(std::move(path)) {}
  DescriptorRangeReader(const DescriptorRangeReader&) = delete;
  DescriptorRangeReader& operator=(const DescriptorRangeReader&) = delete;
  ~DescriptorRangeReader() override { ::close(m_fd); }
  std::uint64_t size() const override { return m_size; }
  Expected<std::string> read(std::uint64_t offset, std::size_t length) const override {
    return pread_range(m_fd, m_size, m_path, offset, length);
  }

 private:
  int m_fd;
  std::uint64_t m_size;
  std::string m_path;
};

class RootedFileSystem final : public FileSystem {
 public:
  explicit RootedFileSystem(std::string root) : m_root(std::move(root)) {
    while (m_root.size() > 1 && m_root.back() == '/') m_root.pop_back();
    if (m_root != "/") load_stat_sidecar();
  }

  const std::string& root() const override { return m_root; }

  Expected<TextFile> read_file(std::string_view path, std::size_t limit) const override {
    auto file = open_regular(path);
    if (!file) return file.error();
    int fd = file->fd;
    TextFile out;
    out.content.resize(std::min<std::size_t>(limit + 1, 64 * 1024));
    std::size_t used = 0;
    while (used <= limit) {
      if (used == out.content.size()) out.content.resize(std::min(limit + 1, out.content.size() * 2));
      ssize_t n = ::read(fd, out.content.data() + used, out.content.size() - used);
      if (n < 0) {
        if (errno == EINTR) continue;
        int err = errno;
        ::close(fd);
        return error_from_errno(err, "read " + std::string(path));
      }
      if (n == 0) break;
      used += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (used > limit) {
      used = limit;
      out.truncated = true;
    }
    out.content.resize(used);
    return out;
  }

  Expected<std::string> read_range(std::string_view path, std::uint64_t offset, std::size_t length) const override {
    auto file = open_regular(path);
    if (!file) return file.error();
    auto out = pread_range(file->fd, file->size, path, offset, length);
    ::close(file->fd);
    return out;
  }

  Expected<std::unique_ptr<RangeReader>> open_range_reader(std::string_view path) const override {
    auto file = open_regular(path);
    if (!file) return file.error();
    return std::unique_ptr<RangeReader>(std::make_unique<DescriptorRangeReader>(file->fd, file->size, std::string(path)));
  }

  Expected<std::string> read_link(std::string_view path) const override {
    auto host = host_path(path, FollowLast::no, "readlink");
    if (!host) return host.error();
    char buf[4096];
    ssize_t n = ::readlink(host->c_str(), buf, sizeof buf);
    if (n < 0) return error_from_errno(errno, "readlink " + std::string(path));
    return std::string(buf, static_cast<std::size_t>(n));
  }

  Expected<std::vector<DirEntry>> list_dir(std::string_view path) const override {
    auto host = host_path(path, FollowLast::yes, "opendir");
    if (!host) return host.error();
    DIR* dir = ::opendir(host->c_str());
    if (dir == nullptr) return error_from_errno(errno, "opendir " + std::string(path));
    std::vector<DirEntry> entries;
    while (struct dirent* e = ::readdir(dir)) {
      std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      FileType type = FileType::other;
      switch (e->d_type) {
        case DT_REG: type = FileType::regular; break;
        case DT_DIR: type = FileType::directory; break;
        case DT_LNK: type = FileType::symlink; break;
        case DT_CHR: type = FileType::char_device; break;
        case DT_BLK: type = FileType::block_device; break;
        default: break;
      }
      entries.push_back({std::string(name), type});
    }
    ::closedir(dir);
    std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    return entries;
  }

  Expected<FileStat> stat(std::string_view path) const override { return do_stat(path, FollowLast::yes); }
  Expected<FileStat> lstat(std::string_view path) const override { return do_stat(path, FollowLast::no); }

  Expected<std::string> real_path(std::string_view path) const override {
    if (m_root == "/") {
      char buf[PATH_MAX];
      std::string p(path);
      if (::realpath(p.c_str(), buf) == nullptr) return error_from_errno(errno, "realpath " + p);
      return std::string(buf);
    }
    auto parts = resolve(path, FollowLast::yes, "realpath");
    if (!parts) return parts.error();
    std::string host = m_root + linux_path(*parts);
    struct stat st {};
    if (::lstat(host.c_str(), &st) != 0) return error_from_errno(errno, "realpath " + std::string(path));
    return linux_path(*parts);
  }

 private:
  struct OpenFile {
    int fd;
    std::uint64_t size;
  };

  // Opens `path` for reading and makes sure it is a regular file; the caller closes the fd.
  // O_NONBLOCK: a FIFO planted where a sysfs file belongs must not hang us.
  Expected<OpenFile> open_regular(std::string_view path) const {
    auto host = host_path(path, FollowLast::yes, "open");
    if (!host) return host.error();
    int fd = ::open(host->c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return error_from_errno(errno, "open " + std::string(path));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return Error{ErrorCode::invalid, "read " + std::string(path) + ": not a regular file"};
    }
    return OpenFile{fd, static_cast<std::uint64_t>(st.st_size)};
  }

  Expected<FileStat> do_stat(std::string_view path, FollowLast follow) const {
    if (!m_sidecar.empty()) {
      auto lp = follow == FollowLast::yes ? real_path(path) : Expected<std::string>(std::string(path));
      if (lp) {
        auto it = m_sidecar.find(*lp);
        if (it != m_sidecar.end()) return it->second;
      }
    }
    auto host = host_path(path, follow, "stat");
    if (!host) return host.error();
    struct stat st {};
    int rc = follow == FollowLast::yes ? ::stat(host->c_str(), &st) : ::lstat(host->c_str(), &st);
    if (rc != 0) return error_from_errno(errno, "stat " + std::string(path));
    return to_file_stat(st);
  }

  // Resolves `path` inside the root and returns its components (relative to the root).
  // Errors name the caller's operation (`op`), as the kernel's own resolution would surface them, so
  // a replayed tree reports exactly what the live machine reported.
  Expected<std::vector<std::string>> resolve(std::string_view path, FollowLast follow, std::string_view op) const {
    std::deque<std::string> pending;
    for (auto& p : split_components(path)) pending.push_back(std::move(p));
    std::vector<std::string> done;
    int hops = 0;
    while (!pending.empty()) {
      std::string part = std::move(pending.front());
      pending.pop_front();
      if (part == ".") continue;
      if (part == "..") {
        if (!done.empty()) done.pop_back();
        continue;
      }
      done.push_back(part);
      if (pending.empty() && follow == FollowLast::no) break;
      std::string host = m_root + linux_path(done);
      struct stat st {};
      if (::lstat(host.c_str(), &st) != 0) {
        if (errno == ENOENT && pending.empty()) break;  // let the caller's open() report it
        return error_from_errno(errno, std::string(op) + " " + std::string(path));
      }
      if (!S_ISLNK(st.st_mode)) continue;
      if (++hops > k_max_symlink_hops) return error_from_errno(ELOOP, std::string(op) + " " + std::string(path));
      char buf[4096];
      ssize_t n = ::readlink(host.c_str(), buf, sizeof buf);
      if (n < 0) return error_from_errno(errno, std::string(op) + " " + std::string(path));
      std::string_view target(buf, static_cast<std::size_t>(n));
      done.pop_back();
      if (!target.empty() && target.front() == '/') done.clear();
      auto target_parts = split_components(target);
      pending.insert(pending.begin(), target_parts.begin(), target_parts.end());
    }
    return done;
  }

  Expected<std::string> host_path(std::string_view path, FollowLast follow, std::string_view op) const {
    if (path.empty() || path.front() != '/') {
      return Error{ErrorCode::invalid, "not an absolute path: " + std::string(path)};
    }
    if (m_root == "/") return std::string(path);
    auto parts = resolve(path, follow, op);
    if (!parts) return parts.error();
    return m_root + linux_path(*parts);
  }

  // Read like any other file of the tree: resolved inside the root (a /.gpudoctor that is a symlink
  // out of the tree reads nothing from outside it), regular files only, bounded.
  void load_stat_sidecar() {
    auto file = read_file("/.gpudoctor/stat", 4u << 20);
    if (!file) return;
    const std::string& text = file->content;
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      parse_sidecar_line(std::string_view(text).substr(pos, end - pos));
      pos = end + 1;
    }
  }

  // "PATH TYPE MODE UID GID": TYPE c|b|f|d, MODE octal. Malformed lines are ignored.
  void parse_sidecar_line(std::string_view line) {
    std::vector<std::string> f;
    std::size_t i = 0;
    while (i < line.size() && f.size() < 6) {
      while (i < line.size() && line[i] == ' ') ++i;
      std::size_t j = line.find(' ', i);
      if (j == std::string_view::npos) j = line.size();
      if (j > i) f.emplace_back(line.substr(i, j - i));
      i = j;
    }
    if (f.size() != 5 || f[0].empty() || f[0][0] != '/') return;
    FileStat st;
    if (f[1] == "c") st.type = FileType::char_device;
    else if (f[1] == "b") st.type = FileType::block_device;
    else if (f[1] == "d") st.type = FileType::directory;
    else if (f[1] == "f") st.type = FileType::regular;
    else return;
    auto num = [](const std::string& s, int base, std::uint32_t& out) {
      auto r = std::from_chars(s.data(), s.data() + s.size(), out, base);
      return r.ec == std::errc() && r.ptr == s.data() + s.size();
    };
    if (!num(f[2], 8, st.mode) || !num(f[3], 10, st.uid) || !num(f[4], 10, st.gid)) return;
    st.mode &= 07777;
    m_sidecar[f[0]] = st;
  }

  std::string m_root;
  std::map<std::string, FileStat, std::less<>> m_sidecar;
};

}  // namespace

std::unique_ptr<FileSystem> make_rooted_file_system(std::string root) {
  return std::make_unique<RootedFileSystem>(std::move(root));
}

Expected<std::string> FileSystem::read_text(std::string_view path, std::size_t limit) const {
  auto f = read_file(path, limit);
  if (!f) return f.error();
  return std::move(f->content);
}

namespace {

class ForwardingRangeReader : public RangeReader {
 public:
  ForwardingRangeReader(const FileSystem& fs, std::string path, std::uint64_t size)
      : m_fs(fs), m_path(std::move(path)), m_size(size) {}
  std::uint64_t size() const override { return m_size; }
  Expected<std::string> read(std::uint64_t offset, std::size_t length) const override {
    return m_fs.read_range(m_path, offset, length);
  }

 private:
  const FileSystem& m_fs;
  std::string m_path;
  std::uint64_t m_size;
};

}  // namespace

Expected<std::unique_ptr<RangeReader>> FileSystem::open_range_reader(std::string_view path) const {
  auto st = stat(path);
  if (!st) return st.error();
  if (st->type != FileType::regular) return Error{ErrorCode::invalid, "read " + std::string(path) + ": not a regular file"};
  return std::unique_ptr<RangeReader>(std::make_unique<ForwardingRangeReader>(*this, std::string(path), st->size));
}

Expected<std::string> FileSystem::read_range(std::string_view path, std::uint64_t offset, std::size_t length) const {
  if (offset > k_max_prefix_read || length > k_max_prefix_read - offset) {
    return Error{ErrorCode::too_large, "read " + std::string(path) + ": range beyond what this file system reads"};
  }
  auto f = read_file(path, static_cast<std::size_t>(offset) + length);
  if (!f) return f.error();
  if (offset >= f->content.size()) return std::string();
  return f->content.substr(static_cast<std::size_t>(offset), length);
}

Expected<std::string> FileSystem::read_attr(std::string_view path) const {
  auto f = read_file(path, 4096);
  if (!f) return f.error();
  std::string_view s = f->content;
  auto nl = s.find('\n');
  if (nl != std::string_view::npos) s = s.substr(0, nl);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return std::string(s);
}

bool FileSystem::exists(std::string_view path) const { return lstat(path).has_value(); }

}  // namespace gpudoctor::sys
