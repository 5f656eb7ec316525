// User-space NVIDIA driver libraries on disk: libcuda.so* and libnvidia-ml.so* in the directories
// the dynamic loader searches (LD_LIBRARY_PATH, /etc/ld.so.conf, the default and multiarch
// directories) and in the places containers and WSL put them. The driver version is read from the
// file name the soname link resolves to (libcuda.so.1 -> libcuda.so.550.54.14), as the driver
// installer names them.
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <array>
#include <set>

namespace gpudoctor::probe {
namespace {

constexpr std::array<std::string_view, 12> k_default_dirs = {
    "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu",
    "/usr/lib64", "/lib64", "/usr/lib", "/lib",
    "/usr/local/nvidia/lib64",  // where NVIDIA's container images expect injected libraries
    "/usr/lib/wsl/lib",         // WSL2: mapped from the Windows driver
    "/usr/local/cuda/compat",   // forward-compatibility libcuda (cuda-compat package)
    "/usr/lib/nvidia"};

void add_dir(std::vector<std::string>& dirs, std::set<std::string>& seen, std::string_view dir) {
  std::string d(util::trim(dir));
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  if (d.empty() || d.front() != '/') return;
  if (seen.insert(d).second) dirs.push_back(d);
}

// /etc/ld.so.conf and its `include` globs (only the "DIR/*.conf" form that distributions use).
// Each configuration file is read once, and at most k_max_conf_files of them: files that include
// each other (or a directory of files that each include the whole directory) would otherwise be
// read a number of times exponential in the depth (found by tests/fuzz machine_fuzzer).
constexpr std::size_t k_max_conf_files = 256;

void add_ld_so_conf(const sys::FileSystem& fs, std::string_view path, std::vector<std::string>& dirs,
                    std::set<std::string>& seen, std::set<std::string>& read, int depth) {
  if (depth > 4 || read.size() >= k_max_conf_files || !read.insert(std::string(path)).second) return;
  auto text = fs.read_text(path, 256 * 1024);
  if (!text) return;
  for (auto raw : util::lines(*text)) {
    auto line = util::trim(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    if (line.starts_with("include")) {
      auto pattern = util::trim(line.substr(7));
      auto dir = util::dir_name(pattern);
      auto base = util::base_name(pattern);
      std::string suffix = base.starts_with("*") ? std::string(base.substr(1)) : std::string();
      auto entries = fs.list_dir(dir);
      if (!entries) continue;
      for (const auto& e : *entries) {
        if (base.starts_with("*") ? e.name.ends_with(suffix) : e.name == base) {
          add_ld_so_conf(fs, util::join_path(dir, e.name), dirs, seen, read, depth + 1);
        }
      }
    } else {
      add_dir(dirs, seen, line);
    }
  }
}

// "libcuda.so.550.54.14" -> "550.54.14"; "libcuda.so.1" -> "" (a soname version, not a driver's).
std::string driver_version_from_name(std::string_view name) {
  auto pos = name.find(".so.");
  if (pos == std::string_view::npos) return {};
  auto tail = name.substr(pos + 4);
  auto v = util::parse_version(tail);
  if (!v || v->size() < 2 || (*v)[0] < 100) return {};
  return std::string(tail);
}

}  // namespace

facts::LibraryFacts probe_libraries(const sys::FileSystem& fs,
                                    const facts::Known<std::map<std::string, std::string>>& env) {
  facts::LibraryFacts out;
  std::set<std::string> seen;
  if (env) {
    if (auto it = env->find("LD_LIBRARY_PATH"); it != env->end()) {
      for (auto d : util::split(it->second, ':')) add_dir(out.searched_dirs, seen, d);
    }
  }
  std::set<std::string> conf_read;
  add_ld_so_conf(fs, "/etc/ld.so.conf", out.searched_dirs, seen, conf_read, 0);
  for (auto d : k_default_dirs) add_dir(out.searched_dirs, seen, d);

  std::set<std::string> seen_files;
  for (const auto& dir : out.searched_dirs) {
    auto entries = fs.list_dir(dir);
    if (!entries) continue;
    for (const auto& e : *entries) {
      facts::DriverLibKind kind;
      if (e.name.starts_with("libcuda.so")) kind = facts::DriverLibKind::libcuda;
      else if (e.name.starts_with("libnvidia-ml.so")) kind = facts::DriverLibKind::libnvidia_ml;
      else continue;
      facts::DriverLibrary lib;
      lib.path = util::sanitize_utf8(util::join_path(dir, e.name));
      if (!seen_files.insert(lib.path).second) continue;
      // A link that leads nowhere (dangling, a loop) is no library the loader could load.
      auto st = fs.stat(lib.path);
      if (!st || st->type != sys::FileType::regular) continue;
      lib.kind = kind;
      auto real = fs.real_path(lib.path);
      lib.resolved_path = real ? util::sanitize_utf8(*real) : lib.path;
      lib.version = driver_version_from_name(util::base_name(lib.resolved_path));
      if (lib.version.empty()) lib.version = driver_version_from_name(e.name);
      lib.is_stub = util::contains(lib.path, "/stubs/") || util::contains(lib.resolved_path, "/stubs/");
      lib.in_wsl_dir = lib.path.starts_with("/usr/lib/wsl/") || lib.resolved_path.starts_with("/usr/lib/wsl/");
      lib.size = st->size;
      out.libraries.push_back(std::move(lib));
    }
  }
  if (auto st = fs.stat("/usr/bin/nvidia-modprobe")) {
    out.nvidia_modprobe_setuid = (st->mode & 04000) != 0 && st->uid == 0;
  }
  return out;
}

}  // namespace gpudoctor::probe
