#include <probe/capture.hpp>
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/secrets.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace gpudoctor::probe {
namespace {

constexpr int k_max_hops = 40;

sys::ArchiveEntry entry(std::string path, sys::ArchiveEntry::Kind kind, std::string content, std::uint32_t mode) {
  sys::ArchiveEntry e;
  e.path = std::move(path);
  e.kind = kind;
  e.content = std::move(content);
  e.mode = mode;
  return e;
}

class Builder {
 public:
  Builder(const sys::FileSystem& fs, const std::map<std::string, std::vector<sys::ByteRange>>& ranges,
          const CaptureScope& scope)
      : m_fs(fs), m_ranges(ranges), m_scope(scope) {}

  // `origin`: the path as the probes asked for it, whose byte ranges were recorded.
  void add(const std::string& path, bool follow_last, const std::string& origin, int hops = 0) {
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
        put(entry(p.substr(1), sys::ArchiveEntry::Kind::symlink, *target, 0777));
        if (last && !follow_last) return;
        std::string rest;
        for (std::size_t k = i + 1; k < parts.size(); ++k) rest += "/" + std::string(parts[k]);
        std::string next = !target->empty() && target->front() == '/' ? *target : cur + "/" + *target;
        add(next + rest, follow_last, origin, hops + 1);
        return;
      }
      if (!last) {
        if (st->type != sys::FileType::directory) return;
        put(entry(p.substr(1), sys::ArchiveEntry::Kind::directory, {}, st->mode | 0700));
        cur = p;
        continue;
      }
      add_final(p, *st, origin);
    }
  }

  Capture finish(const std::map<std::string, std::string>& extra) {
    std::string sidecar;
    for (const auto& line : m_stat_lines) sidecar += line + "\n";
    std::map<std::string, std::string> files = extra;
    files["/.gpudoctor/stat"] = sidecar;
    for (const auto& [path, content] : files) {
      put(entry(std::string(path).substr(1), sys::ArchiveEntry::Kind::file, content, 0644));
    }
    put(entry(".gpudoctor", sys::ArchiveEntry::Kind::directory, {}, 0755));
    // Parents before children: tar extraction then creates each directory with its own mode.
    for (auto& [path, entry] : m_entries) m_out.entries.push_back(std::move(entry));
    return std::move(m_out);
  }

 private:
  void add_final(const std::string& p, const sys::FileStat& st, const std::string& origin) {
    if (m_entries.count(p.substr(1)) != 0) return;  // asked for more than once (read, then stat)
    switch (st.type) {
      case sys::FileType::directory:
        put(entry(p.substr(1), sys::ArchiveEntry::Kind::directory, {}, st.mode | 0700));
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
          add_partial(p, st, origin);
          return;
        }
        content = without_secrets(p, std::move(f->content));
        put(entry(p.substr(1), sys::ArchiveEntry::Kind::file, std::move(content), st.mode & 0777));
        if (p.starts_with("/dev/") || st.uid != 0 || st.gid != 0 || (st.mode & 07000) != 0) stat_line(p, 'f', st);
        return;
      }
      case sys::FileType::char_device:
      case sys::FileType::block_device:
        put(entry(p.substr(1), sys::ArchiveEntry::Kind::file, {}, 0644));
        stat_line(p, st.type == sys::FileType::char_device ? 'c' : 'b', st);
        return;
      default: m_out.skipped.push_back(p + ": not a file, directory, link or device"); return;
    }
  }

  // A large file (a CUDA library) keeps the bytes the ELF and fatbin readers read, at their
  // offsets; the replay reads the same ranges from it.
  void add_partial(const std::string& p, const sys::FileStat& st, const std::string& origin) {
    auto it = m_ranges.find(origin);
    if (it == m_ranges.end()) it = m_ranges.find(p);
    std::uint64_t kept = 0;
    std::vector<sys::ByteRange> ranges;
    if (it != m_ranges.end()) {
      for (const auto& r : it->second) {
        if (r.offset >= st.size) continue;
        sys::ByteRange clipped{r.offset, std::min(r.length, st.size - r.offset)};
        kept += clipped.length;
        ranges.push_back(clipped);
      }
    }
    if (ranges.empty() || kept > k_capture_range_limit) {
      m_out.skipped.push_back(fmt::format("{}: larger than {} MiB, not copied{}", p, k_capture_file_limit >> 20,
                                          ranges.empty() ? "" : fmt::format(" ({} MiB of it were read)", kept >> 20)));
      return;
    }
    sys::ArchiveEntry e = entry(p.substr(1), sys::ArchiveEntry::Kind::file, {}, st.mode & 0777);
    e.sparse_size = st.size;
    for (const auto& r : ranges) {
      auto data = m_fs.read_range(p, r.offset, static_cast<std::size_t>(r.length));
      if (!data) {
        m_out.skipped.push_back(fmt::format("{}: {}", p, data.error().message));
        return;
      }
      e.pieces.push_back({r.offset, std::move(*data)});
    }
    put(std::move(e));
    m_out.partial.push_back({p, st.size, std::move(ranges)});
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
  // What a file may carry that must not leave the machine: other people's environment and
  // command lines, every account name, the credentials in a pip URL.
  std::string without_secrets(const std::string& p, std::string content) const {
    if (p.starts_with("/proc/") && p.ends_with("/environ")) return filter_environ(content);
    // /proc/PID/cmdline (NUL-separated arguments), not the kernel's /proc/cmdline.
    if (p.starts_with("/proc/") && p.ends_with("/cmdline") && std::count(p.begin(), p.end(), '/') == 3) {
      return util::redact_argv(content);
    }
    if (p == "/etc/passwd") return filter_passwd(content, m_scope.uid);
    if (p == "/etc/group") return filter_group(content, m_scope.gids);
    if (p.ends_with("/direct_url.json")) return util::redact_url_credentials(content);
    return content;
  }

  const std::map<std::string, std::vector<sys::ByteRange>>& m_ranges;
  const CaptureScope& m_scope;
  std::map<std::string, sys::ArchiveEntry> m_entries;
  std::set<std::string> m_stat_lines;
  Capture m_out;
};

}  // namespace

std::string filter_environ(std::string_view block) {
  std::string out;
  for (auto entry : util::split(block, '\0')) {
    auto eq = entry.find('=');
    if (eq == std::string_view::npos || !env_entry_kept(entry.substr(0, eq), entry.substr(eq + 1))) continue;
    out.append(entry);
    out.push_back('\0');
  }
  return out;
}

// passwd(5): name:password:UID:GID:GECOS:directory:shell. The identity probe reads the name of
// the running user by UID; the rest (the full name in GECOS, the home, the shell) stays here.
std::string filter_passwd(std::string_view passwd, std::optional<std::uint32_t> uid) {
  std::string out;
  if (!uid) return out;
  for (auto line : util::lines(passwd)) {
    auto f = util::split(line, ':');
    if (f.size() >= 4 && util::parse_uint(f[2]) == std::optional<std::uint64_t>(*uid)) {
      out += fmt::format("{}:x:{}:{}:::\n", f[0], f[2], f[3]);
      break;
    }
  }
  return out;
}

// group(5): group_name:password:GID:user_list. Only the groups the checks name by number are kept,
// without their member lists (account names).
std::string filter_group(std::string_view group, const std::set<std::uint32_t>& gids) {
  std::string out;
  for (auto line : util::lines(group)) {
    auto f = util::split(line, ':');
    if (f.size() < 3) continue;
    auto gid = util::parse_uint(f[2]);
    if (gid && *gid <= 0xffffffffu && gids.count(static_cast<std::uint32_t>(*gid))) {
      out += fmt::format("{}:x:{}:\n", f[0], f[2]);
    }
  }
  return out;
}

Capture build_capture(const sys::FileSystem& live, const std::set<sys::RecordedAccess>& accesses,
                      const std::map<std::string, std::string>& extra,
                      const std::map<std::string, std::vector<sys::ByteRange>>& ranges, const CaptureScope& scope) {
  Builder b(live, ranges, scope);
  for (const auto& a : accesses) b.add(a.path, a.kind != sys::AccessKind::link, a.path);
  return b.finish(extra);
}

}  // namespace gpudoctor::probe
