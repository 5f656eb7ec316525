// sys.path from an interpreter's files, without starting it (so no .pth `import` line, no
// sitecustomize, nothing of the user's environment runs). It follows what CPython does at start-up:
//  - Modules/getpath.py: a venv is found by pyvenv.cfg beside the executable or one directory up,
//    and its `home` names the base interpreter's directory; the prefix is found by walking up from
//    the (real) executable's directory until lib/pythonX.Y/os.py (the landmark) is there;
//  - the stdlib entries: lib/pythonXY.zip, lib/pythonX.Y, lib-dynload (2.7 adds plat-linux2,
//    lib-tk and lib-old);
//  - Lib/site.py main(): the venv's site-packages first, then the user site (off in a venv without
//    system site packages, or with PYTHONNOUSERSITE), then each prefix's site-packages; only
//    directories that exist; each followed by its .pth files' path lines (sorted by file name,
//    hidden ones skipped, relative to the directory, existing, not already present); lines starting
//    "import " are code and are never run here, which the notes say;
//  - Debian's site.py: /usr's dist-packages trio (/usr/local/lib/pythonX.Y/dist-packages,
//    /usr/lib/python3/dist-packages, /usr/lib/pythonX.Y/dist-packages);
//  - a ._pth file beside the executable replaces sys.path with its lines (3.11+ on every platform).
// PYTHONPATH is put first by the caller, as for the other sources.
#include <probe/python_probe.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include <util/path.hpp>
#include <util/text.hpp>

namespace gpudoctor::probe {
namespace {

constexpr std::size_t k_max_pth_bytes = 256 * 1024;
constexpr std::size_t k_max_pth_files = 1000;

std::string normalize(std::string_view path) {
  // os.path.abspath: collapse "." and ".." and duplicate slashes, textually.
  std::vector<std::string_view> parts;
  for (auto p : util::split(path, '/')) {
    if (p.empty() || p == ".") continue;
    if (p == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(p);
  }
  std::string out;
  for (auto p : parts) {
    out += '/';
    out += p;
  }
  return out.empty() ? "/" : out;
}

bool is_dir(const sys::FileSystem& fs, const std::string& p) {
  auto st = fs.stat(p);
  return st && st->type == sys::FileType::directory;
}

// "python3.11" -> "3.11", "python2.7" -> "2.7"; "" for anything else.
std::string version_of_name(std::string_view name) {
  if (!name.starts_with("python")) return "";
  auto v = name.substr(6);
  auto dot = v.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= v.size()) return "";
  if (v.find_first_not_of("0123456789.") != std::string_view::npos) return "";
  return std::string(v);
}

struct SitePath {
  std::vector<std::string> entries;
  std::set<std::string> known;
  std::vector<std::string> notes;
  void add(const std::string& p) {
    if (known.insert(p).second) entries.push_back(p);
  }
};

void add_pth_files(const sys::FileSystem& fs, const std::string& dir, SitePath& sp) {
  auto list = fs.list_dir(dir);
  if (!list) return;
  std::vector<std::string> names;
  for (const auto& e : *list)
    if (e.name.ends_with(".pth") && !e.name.starts_with(".")) names.push_back(e.name);
  std::sort(names.begin(), names.end());
  if (names.size() > k_max_pth_files) names.resize(k_max_pth_files);
  for (const auto& name : names) {
    auto text = fs.read_text(util::join_path(dir, name), k_max_pth_bytes);
    if (!text) continue;
    std::string_view body = *text;
    if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
    int imports = 0;
    for (auto line : util::lines(body)) {
      if (line.starts_with("#") || util::trim(line).empty()) continue;
      if (line.starts_with("import ") || line.starts_with("import\t")) {
        ++imports;
        continue;
      }
      while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
      std::string p = normalize(line.starts_with("/") ? std::string(line) : util::join_path(dir, line));
      if (!sp.known.count(p) && fs.exists(p)) sp.add(p);
    }
    if (imports > 0)
      sp.notes.push_back(fmt::format("{}: {} import line{} not run (code; what it does to sys.path is not known without running it)",
                                     util::join_path(dir, name), imports, imports == 1 ? "" : "s"));
  }
}

void add_site_dir(const sys::FileSystem& fs, const std::string& dir, SitePath& sp) {
  if (!is_dir(fs, dir)) return;
  sp.add(normalize(dir));
  add_pth_files(fs, dir, sp);
}

// The site-packages of one prefix, as that prefix's site.py lists them.
std::vector<std::string> prefix_site_dirs(const sys::FileSystem& fs, const std::string& prefix, const std::string& xy,
                                          bool in_venv) {
  if (xy.starts_with("2."))
    return {fmt::format("{}/lib/python{}/site-packages", prefix, xy), fmt::format("{}/lib/site-python", prefix)};
  if (!in_venv && fs.exists(util::join_path(prefix, "lib/python3/dist-packages"))) {
    // Debian's patched site.py (python3.X package, Lib/site.py getsitepackages).
    return {fmt::format("/usr/local/lib/python{}/dist-packages", xy), util::join_path(prefix, "lib/python3/dist-packages"),
            fmt::format("{}/lib/python{}/dist-packages", prefix, xy)};
  }
  std::vector<std::string> out;
  // sys.platlibdir "lib64" (Fedora, openSUSE) comes before "lib".
  auto lib64 = fmt::format("{}/lib64/python{}/site-packages", prefix, xy);
  auto lib = fmt::format("{}/lib/python{}/site-packages", prefix, xy);
  if (is_dir(fs, lib64) && fs.real_path(lib64).value_or(lib64) != fs.real_path(lib).value_or(lib)) out.push_back(lib64);
  out.push_back(lib);
  return out;
}

// Walks up from `dir` to the directory holding lib/pythonX.Y/os.py (getpath's landmark).
std::optional<std::string> find_prefix(const sys::FileSystem& fs, std::string dir, const std::string& xy) {
  for (int i = 0; i < 8 && !dir.empty(); ++i) {
    for (const char* landmark : {"os.py", "os.pyc"}) {
      if (fs.exists(fmt::format("{}/lib/python{}/{}", dir == "/" ? "" : dir, xy, landmark))) return dir;
    }
    if (dir == "/") break;
    dir = std::string(util::dir_name(dir));
  }
  return std::nullopt;
}

}  // namespace

sys::Expected<InterpreterInfo> static_interpreter_info(const sys::FileSystem& fs, const std::string& interpreter,
                                                       const std::map<std::string, std::string>& env) {
  InterpreterInfo info;
  std::string exe_dir(util::dir_name(interpreter));
  std::string site_prefix(util::dir_name(exe_dir));
  std::string real = fs.real_path(interpreter).value_or(interpreter);

  // A venv: pyvenv.cfg beside the executable or one directory up.
  std::map<std::string, std::string> cfg;
  std::string cfg_path;
  for (const auto& candidate : {util::join_path(exe_dir, "pyvenv.cfg"), util::join_path(site_prefix, "pyvenv.cfg")}) {
    auto st = fs.stat(candidate);
    if (st && st->type == sys::FileType::regular) {
      cfg_path = candidate;
      break;
    }
  }
  if (!cfg_path.empty()) {
    for (auto& [k, v] : read_pyvenv_cfg(fs, cfg_path)) {
      std::string key = k;
      std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      cfg[key] = v;
    }
  }
  bool venv = !cfg_path.empty();

  std::string xy = version_of_name(util::base_name(real));
  if (xy.empty()) xy = version_of_name(util::base_name(interpreter));
  if (xy.empty() && venv) {
    for (const char* key : {"version_info", "version"}) {
      auto it = cfg.find(key);
      if (it == cfg.end() || !xy.empty()) continue;
      auto v = util::split(it->second, '.');
      if (v.size() >= 2) xy = fmt::format("{}.{}", v[0], v[1]);
    }
  }
  std::string base_dir = venv && cfg.count("home") ? cfg["home"] : std::string(util::dir_name(real));
  if (xy.empty()) {
    // A bare `python`: the newest lib/pythonX.Y with a landmark above the executable.
    for (std::string d = std::string(util::dir_name(base_dir)); xy.empty() && !d.empty();) {
      if (auto list = fs.list_dir(util::join_path(d, "lib"))) {
        std::vector<std::string> found;
        for (const auto& e : *list) {
          auto v = version_of_name(e.name);
          if (!v.empty() && fs.exists(fmt::format("{}/lib/{}/os.py", d == "/" ? "" : d, e.name))) found.push_back(v);
        }
        std::sort(found.begin(), found.end(), [](const std::string& a, const std::string& b) {
          return util::compare_versions(util::parse_version(a).value_or(std::vector<int>{}),
                                        util::parse_version(b).value_or(std::vector<int>{})) < 0;
        });
        if (!found.empty()) xy = found.back();
      }
      if (d == "/") break;
      d = std::string(util::dir_name(d));
    }
  }
  if (xy.empty()) return sys::Error{sys::ErrorCode::not_found, fmt::format("{}: no Python version in its name or its lib/", interpreter)};
  auto base = find_prefix(fs, base_dir, xy);
  std::string base_prefix = base ? *base : std::string(util::dir_name(base_dir));
  if (!base) {
    // Python itself would not start without its standard library; the packages are still examined.
    info.notes.push_back(fmt::format("no lib/python{}/os.py above {}: the prefix {} is assumed", xy, base_dir, base_prefix));
  }
  info.version = xy;
  info.prefix = venv ? site_prefix : base_prefix;
  std::string lib = base_prefix == "/" ? "/lib" : base_prefix + "/lib";

  // A ._pth file replaces everything (getpath.py, 3.11+).
  auto nodot = xy;
  nodot.erase(std::remove(nodot.begin(), nodot.end(), '.'), nodot.end());
  for (const auto& pth : {util::join_path(std::string(util::dir_name(real)), fmt::format("python{}._pth", nodot)),
                          util::join_path(std::string(util::dir_name(real)), std::string(util::base_name(real)) + "._pth")}) {
    if (xy.starts_with("2.")) break;
    auto text = fs.read_text(pth, k_max_pth_bytes);
    if (!text) continue;
    bool import_site = false;
    for (auto line : util::lines(*text)) {
      auto t = util::trim(line);
      if (t.empty() || t.starts_with("#")) continue;
      if (t == "import site") {
        import_site = true;
        continue;
      }
      info.sys_path.push_back(normalize(t.starts_with("/") ? std::string(t) : util::join_path(std::string(util::dir_name(pth)), t)));
    }
    info.notes.push_back(pth + " sets sys.path");
    if (!import_site) return info;
    break;
  }

  SitePath sp;
  if (info.sys_path.empty()) {
    sp.add(fmt::format("{}/python{}.zip", lib, nodot));
    sp.add(fmt::format("{}/python{}", lib, xy));
    if (xy.starts_with("2.")) {
      for (const char* d : {"plat-linux2", "lib-tk", "lib-old"}) sp.add(fmt::format("{}/python{}/{}", lib, xy, d));
    }
    sp.add(fmt::format("{}/python{}/lib-dynload", lib, xy));
  } else {
    for (const auto& p : info.sys_path) sp.add(p);
  }

  std::string include_system = cfg.count("include-system-site-packages") ? cfg["include-system-site-packages"] : "false";
  std::transform(include_system.begin(), include_system.end(), include_system.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  bool system_site = !venv || include_system == "true";
  if (venv) {
    for (const auto& d : prefix_site_dirs(fs, site_prefix, xy, true)) add_site_dir(fs, d, sp);
  }
  bool user_site = system_site && !env_value(env, "PYTHONNOUSERSITE");
  if (user_site) {
    std::string user_base;
    if (auto b = env_value(env, "PYTHONUSERBASE")) user_base = *b;
    else if (auto h = env_value(env, "HOME")) user_base = util::join_path(*h, ".local");
    if (!user_base.empty()) add_site_dir(fs, fmt::format("{}/lib/python{}/site-packages", user_base, xy), sp);
  }
  if (system_site) {
    for (const auto& d : prefix_site_dirs(fs, base_prefix, xy, false)) add_site_dir(fs, d, sp);
  }
  info.sys_path = std::move(sp.entries);
  info.notes.insert(info.notes.end(), sp.notes.begin(), sp.notes.end());
  return info;
}

}  // namespace gpudoctor::probe
