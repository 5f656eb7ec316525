#include <probe/capture.hpp>
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

namespace gpudoctor::probe {
namespace {

constexpr std::size_t k_capture_file_limit = 32 << 20;
constexpr int k_max_hops = 40;

class Builder {
 public:
  explicit Builder(const sys::FileSystem& fs) : m_fs(fs) {}

  void add(const std::string& path, bool follow_last, int hops = 0) {
    if (hops > k_max_hops) {
      m_out.skipped.push_back(path + ": too many symlinks");
      return;
    }
    auto parts = util::split(path, '/');
    std::string cur;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].empty() || parts[i] == ".") continue;
      if (parts[i] == "..") {
        cur = std::string(util::dir_name(cur.empty() ? "/" : cur));
        if (cur == "/") cur.clear();
        continue;
      }
      std::string p = cur + "/" + std::string(parts[i]);
      bool last = i + 1 == parts.size();
      auto st = m_fs.lstat(p);
      if (!st) return;  // absent: absence replays as absence
      if (st->type == sys::FileType::symlink) {
        auto target = m_fs.read_link(p);
        if (!target) return;
        put({p.substr(1), sys::ArchiveEntry::Kind::symlink, *target, 0777});
        if (last && !follow_last) return;
        std::string rest;
        for (std::size_t k = i + 1; k < parts.size(); ++k) rest += "/" + std::string(parts[k]);
        std::string next = !target->empty() && target->front() == '/' ? *target : cur + "/" + *target;
        add(next + rest, follow_last, hops + 1);
        return;
      }
      if (!last) {
        if (st->type != sys::FileType::directory) return;
        put({p.substr(1), sys::ArchiveEntry::Kind::directory, {}, st->mode | 0700});
        cur = p;
        continue;
      }
      add_final(p, *st);
    }
  }

  Capture finish(const std::map<std::string, std::string>& extra) {
    std::string sidecar;
    for (const auto& line : m_stat_lines) sidecar += line + "\n";
    std::map<std::string, std::string> files = extra;
    files["/.gpudoctor/stat"] = sidecar;
    for (const auto& [path, content] : files) {
      put({std::string(path).substr(1), sys::ArchiveEntry::Kind::file, content, 0644});
    }
    put({".gpudoctor", sys::ArchiveEntry::Kind::directory, {}, 0755});
    // Parents before children: tar extraction then creates each directory with its own mode.
    for (auto& [path, entry] : m_entries) m_out.entries.push_back(std::move(entry));
    return std::move(m_out);
  }

 private:
  void add_final(const std::string& p, const sys::FileStat& st) {
    switch (st.type) {
      case sys::FileType::directory:
        put({p.substr(1), sys::ArchiveEntry::Kind::directory, {}, st.mode | 0700});
        return;
      case sys::FileType::regular: {
        std::string content;
        auto f = m_fs.read_file(p, k_capture_file_limit);
        if (!f) {
          m_out.skipped.push_back(fmt::format("{}: {}", p, f.error().message));
          return;
        }
        // A cut-off copy would replay as a different file (an ELF whose section headers are gone):
        // better absent, which the replay reports as unreadable.
        if (f->truncated) {
          m_out.skipped.push_back(fmt::format("{}: larger than {} MiB, not copied", p, k_capture_file_limit >> 20));
          return;
        }
        content = std::move(f->content);
        if (p.starts_with("/proc/") && p.ends_with("/environ")) content = filter_environ(content);
        put({p.substr(1), sys::ArchiveEntry::Kind::file, std::move(content), st.mode & 0777});
        if (p.starts_with("/dev/") || st.uid != 0 || st.gid != 0 || (st.mode & 07000) != 0) stat_line(p, 'f', st);
        return;
      }
      case sys::FileType::char_device:
      case sys::FileType::block_device:
        put({p.substr(1), sys::ArchiveEntry::Kind::file, {}, 0644});
        stat_line(p, st.type == sys::FileType::char_device ? 'c' : 'b', st);
        return;
      default: m_out.skipped.push_back(p + ": not a file, directory, link or device"); return;
    }
  }

  void stat_line(const std::string& p, char type, const sys::FileStat& st) {
    if (p.find(' ') != std::string::npos) return;
    m_stat_lines.insert(fmt::format("{} {} {:04o} {} {}", p, type, st.mode & 07777, st.uid, st.gid));
  }

  void put(sys::ArchiveEntry e) {
    auto it = m_entries.find(e.path);
    if (it == m_entries.end()) m_entries.emplace(e.path, std::move(e));
  }

  const sys::FileSystem& m_fs;
  std::map<std::string, sys::ArchiveEntry> m_entries;
  std::set<std::string> m_stat_lines;
  Capture m_out;
};

}  // namespace

std::string filter_environ(std::string_view block) {
  std::string out;
  for (auto entry : util::split(block, '\0')) {
    auto eq = entry.find('=');
    if (eq == std::string_view::npos || !env_var_allowed(entry.substr(0, eq))) continue;
    out.append(entry);
    out.push_back('\0');
  }
  return out;
}

Capture build_capture(const sys::FileSystem& live, const std::set<sys::RecordedAccess>& accesses,
                      const std::map<std::string, std::string>& extra) {
  Builder b(live);
  for (const auto& a : accesses) b.add(a.path, a.kind != sys::AccessKind::link);
  return b.finish(extra);
}

}  // namespace gpudoctor::probe
