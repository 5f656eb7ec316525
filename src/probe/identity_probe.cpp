// Who this process is (/proc/self/status: effective uid and gid, supplementary groups) and the
// names of the groups that decide device access (/etc/group).
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <set>

namespace gpudoctor::probe {
namespace {

// Groups that own GPU nodes on common distributions (ROCm docs: render, video).
constexpr std::string_view k_named_groups[] = {"render", "video"};

}  // namespace

facts::IdentityFacts probe_identity(const sys::FileSystem& fs, const facts::DevFacts& dev) {
  facts::IdentityFacts id;
  auto status = fs.read_text("/proc/self/status", 256 * 1024);
  if (!status) {
    id.uid = facts::Known<std::uint32_t>::unknown(status.error().message);
    id.gid = facts::Known<std::uint32_t>::unknown(status.error().message);
  } else {
    id.uid = facts::Known<std::uint32_t>::unknown("/proc/self/status has no Uid line");
    id.gid = facts::Known<std::uint32_t>::unknown("/proc/self/status has no Gid line");
    for (auto line : util::lines(*status)) {
      auto colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      auto key = line.substr(0, colon);
      auto f = util::split_ws(line.substr(colon + 1));
      auto effective = [&]() -> std::optional<std::uint32_t> {
        if (f.size() < 2) return std::nullopt;
        auto v = util::parse_uint(f[1]);
        if (!v || *v > 0xffffffffu) return std::nullopt;
        return static_cast<std::uint32_t>(*v);
      };
      if (key == "Uid") {
        if (auto v = effective()) id.uid = *v;
      } else if (key == "Gid") {
        if (auto v = effective()) id.gid = *v;
      } else if (key == "Groups") {
        for (auto g : f) {
          auto v = util::parse_uint(g);
          if (v && *v <= 0xffffffffu) id.groups.push_back(static_cast<std::uint32_t>(*v));
        }
      }
    }
  }

  std::set<std::uint32_t> node_gids;
  if (dev.nodes) {
    for (const auto& n : *dev.nodes) node_gids.insert(n.gid);
  }
  if (auto group = fs.read_text("/etc/group", 4 << 20)) {
    for (auto line : util::lines(*group)) {
      auto f = util::split(line, ':');
      if (f.size() < 3) continue;
      auto gid = util::parse_uint(f[2]);
      if (!gid || *gid > 0xffffffffu) continue;
      bool named = false;
      for (auto n : k_named_groups) named = named || f[0] == n;
      if (named || node_gids.count(static_cast<std::uint32_t>(*gid))) {
        id.group_ids[util::sanitize_utf8(f[0])] = static_cast<std::uint32_t>(*gid);
      }
    }
  }
  id.user_name = facts::Known<std::string>::unknown("not in /etc/passwd");
  if (id.uid) {
    if (auto passwd = fs.read_text("/etc/passwd", 4 << 20)) {
      for (auto line : util::lines(*passwd)) {
        auto f = util::split(line, ':');
        if (f.size() >= 3 && util::parse_uint(f[2]) == std::optional<std::uint64_t>(*id.uid)) {
          id.user_name = util::sanitize_utf8(f[0]);
          break;
        }
      }
    }
  }
  return id;
}

}  // namespace gpudoctor::probe
