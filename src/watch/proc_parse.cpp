#include <watch/proc_parse.hpp>

#include <util/text.hpp>
#include <watch/timeline.hpp>

namespace gpudoctor::watch {

std::optional<ProcStat> parse_stat(std::string_view line) {
  auto open = line.find('(');
  auto close = line.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  ProcStat s;
  s.comm = std::string(line.substr(open + 1, close - open - 1));
  // Fields from 3 (state) on, 1-based as in proc_pid_stat(5).
  auto rest = util::split_ws(util::trim(line.substr(close + 1)));
  auto field = [&](std::size_t n) -> std::optional<std::uint64_t> {
    if (n < 3 || n - 3 >= rest.size()) return std::nullopt;
    return util::parse_uint(rest[n - 3]);
  };
  if (rest.size() < 22 || rest[0].size() != 1) return std::nullopt;
  s.state = rest[0][0];
  auto ppid = field(4), utime = field(14), stime = field(15), threads = field(20), start = field(22);
  if (!ppid || !utime || !stime || !threads || !start) return std::nullopt;
  s.ppid = static_cast<int>(*ppid);
  s.utime = *utime;
  s.stime = *stime;
  s.threads = static_cast<int>(*threads);
  s.start_time = *start;
  s.vsize = field(23).value_or(0);
  s.rss_pages = field(24).value_or(0);
  return s;
}

std::uint32_t gpu_libraries_in_maps(std::string_view maps) {
  std::uint32_t mask = 0;
  for (auto line : util::lines(maps)) {
    // "addr perms offset dev inode   pathname": only file-backed mappings have a '/'.
    auto slash = line.find('/');
    if (slash == std::string_view::npos) continue;
    // Cheap prefilter: most mapped files are not GPU libraries.
    auto path = line.substr(slash);
    if (!util::contains(path, "lib")) continue;
    mask |= library_of_path(path);
  }
  return mask;
}

bool is_gpu_device_path(std::string_view t) {
  return t.starts_with("/dev/nvidia") || t == "/dev/kfd" || t.starts_with("/dev/dri/renderD") || t == "/dev/dxg";
}

std::optional<int> nvidia_minor(std::string_view device) {
  constexpr std::string_view k_prefix = "/dev/nvidia";
  if (!device.starts_with(k_prefix)) return std::nullopt;
  auto n = util::parse_uint(device.substr(k_prefix.size()));
  if (!n) return std::nullopt;
  return static_cast<int>(*n);
}

bool is_gpu_context_device(std::string_view device) {
  return nvidia_minor(device).has_value() || device == "/dev/kfd" || device.starts_with("/dev/dri/renderD") ||
         device == "/dev/dxg";
}

}  // namespace gpudoctor::watch
