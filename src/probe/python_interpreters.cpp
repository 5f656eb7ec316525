// Finding the interpreters a user runs, and (--deep only) asking one for its sys.path: `python -I -c`
// prints sys.path exactly (isolated: no PYTHON* variables, no user site, no working directory on
// sys.path; the working directory of the child is "/"), and what -I leaves out that a normal run has
// is put back by rule: PYTHONPATH first, then the user site before the first site directory (CPython
// Lib/site.py main(): addusersitepackages runs before addsitepackages; venvs without system site
// packages turn the user site off). Without --deep, sys.path is read from files (python_sys_path.cpp).
#include <probe/python_probe.hpp>

#include <sys/subprocess.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

namespace gpudoctor::probe {
namespace {

using facts::InterpreterOrigin;

// NUL-separated so that no path can break the framing; no json import, which would double the
// interpreter's start-up time.
constexpr std::string_view k_query_script =
    "import sys\n"
    "try:\n"
    " import site;u=site.getusersitepackages()\n"
    "except Exception:\n"
    " u=''\n"
    "sys.stdout.write('\\0'.join(['%d.%d'%sys.version_info[:2],sys.prefix,sys.base_prefix,u]+sys.path))\n";

// A version name from PYENV_VERSION or a version file is joined onto $PYENV_ROOT/versions and the
// result is executed, so a name that climbs out of versions/ would let a checkout's
// .python-version choose the program gpudoctor runs (CVE-2022-35861 in pyenv itself). pyenv now
// ignores such names with a warning (libexec/pyenv-version-file-read, is_version_safe); we accept
// plain names only: no '/', not "." or "..", no control character.
bool pyenv_version_name_is_safe(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos) return false;
  return std::none_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// The version names a pyenv version file or PYENV_VERSION lists, in order: pyenv reads the first
// word of each line, skips empty lines and '#' comments, and separates PYENV_VERSION's names by ':'.
std::vector<std::string> pyenv_version_names(std::string_view text, char separator) {
  std::vector<std::string> out;
  for (auto line : util::split(text, separator)) {
    for (auto sub : util::split(line, '\n')) {
      auto word = util::trim(sub);
      word = word.substr(0, std::min(word.find_first_of(" \t\r"), word.size()));
      if (word.empty() || word.starts_with("#")) continue;
      out.emplace_back(word);
    }
  }
  return out;
}

// pyenv's shims are bash scripts that run `pyenv exec` (a quarter of a second); the version they
// pick follows pyenv's own order: PYENV_VERSION, a .python-version file from the working
// directory up, then $PYENV_ROOT/version. "system" means the next interpreter on PATH. Of several
// versions, the first that has the command wins (pyenv-which). An unsafe name is skipped, as pyenv
// skips it.
struct PyenvChoice {
  enum class Kind { system, version, none } kind = Kind::none;
  std::string path;  // Kind::version: $PYENV_ROOT/versions/NAME/bin/COMMAND
};
std::optional<PyenvChoice> resolve_pyenv_shim(const sys::FileSystem& fs, const std::string& shim,
                                              const std::map<std::string, std::string>& env,
                                              const std::string& cwd) {
  auto dir = std::string(util::dir_name(shim));
  if (util::base_name(dir) != "shims") return std::nullopt;
  auto head = fs.read_text(shim, 512);
  if (!head || !head->starts_with("#!") || !util::contains(*head, "pyenv")) return std::nullopt;
  auto root = std::string(util::dir_name(dir));
  std::vector<std::string> names;
  if (auto v = env_value(env, "PYENV_VERSION")) names = pyenv_version_names(*v, ':');
  for (std::string d = cwd; names.empty() && !d.empty();) {
    if (auto f = fs.read_text(util::join_path(d, ".python-version"), 4096)) names = pyenv_version_names(*f, '\n');
    if (d == "/") break;
    d = std::string(util::dir_name(d));
  }
  if (names.empty()) {
    if (auto f = fs.read_text(util::join_path(root, "version"), 4096)) names = pyenv_version_names(*f, '\n');
  }
  auto versions = util::join_path(root, "versions");
  for (const auto& name : names) {
    if (name == "system") return PyenvChoice{PyenvChoice::Kind::system, {}};
    if (!pyenv_version_name_is_safe(name)) continue;
    auto candidate = util::join_path(util::join_path(util::join_path(versions, name), "bin"), util::base_name(shim));
    if (fs.exists(candidate)) return PyenvChoice{PyenvChoice::Kind::version, candidate};
  }
  // No listed version has the command, or none was safe: the shim fails, as pyenv would.
  return PyenvChoice{};
}

}  // namespace

std::optional<std::string> env_value(const std::map<std::string, std::string>& env, const char* name) {
  auto it = env.find(name);
  if (it == env.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

std::map<std::string, std::string> read_pyvenv_cfg(const sys::FileSystem& fs, const std::string& path) {
  std::map<std::string, std::string> out;
  auto text = fs.read_text(path, 16 * 1024);
  if (!text) return out;
  for (auto line : util::lines(*text)) {
    auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    out[std::string(util::trim(line.substr(0, eq)))] = std::string(util::trim(line.substr(eq + 1)));
  }
  return out;
}

std::vector<InterpreterCandidate> discover_interpreters(const sys::FileSystem& fs,
                                                        const std::map<std::string, std::string>& env,
                                                        const std::vector<std::string>& extra,
                                                        const std::string& cwd) {
  std::vector<InterpreterCandidate> out;
  std::set<std::string> keys;
  auto add = [&](const std::string& path, InterpreterOrigin origin, std::string label) {
    auto st = fs.stat(path);
    if (!st || st->type != sys::FileType::regular || (st->mode & 0111) == 0) return;
    // A venv's bin/python links to the base interpreter but is another environment: the key keeps
    // the directory it was invoked from.
    auto dir = fs.real_path(util::dir_name(path)).value_or(std::string(util::dir_name(path)));
    auto key = dir + "\n" + fs.real_path(path).value_or(path);
    if (!keys.insert(key).second) return;
    out.push_back({path, origin, std::move(label)});
  };
  if (auto venv = env_value(env, "VIRTUAL_ENV")) {
    add(util::join_path(*venv, "bin/python"), InterpreterOrigin::virtual_env, "the venv " + *venv);
  }
  if (auto conda = env_value(env, "CONDA_PREFIX")) {
    // `conda activate NAME` sets CONDA_DEFAULT_ENV to the name (a path for `conda activate -p PATH`).
    auto name = env_value(env, "CONDA_DEFAULT_ENV");
    bool named = name && *name != *conda && name->find('/') == std::string::npos;
    add(util::join_path(*conda, "bin/python"), InterpreterOrigin::conda_env,
        named ? fmt::format("the conda env {} ({})", *name, *conda) : "the conda env " + *conda);
  }
  if (auto path = env_value(env, "PATH")) {
    for (auto name : {"python3", "python"}) {
      for (auto dir : util::split(*path, ':')) {
        if (dir.empty() || dir[0] != '/') continue;
        auto candidate = util::join_path(dir, name);
        if (!fs.exists(candidate)) continue;
        if (auto choice = resolve_pyenv_shim(fs, candidate, env, cwd)) {
          if (choice->kind == PyenvChoice::Kind::system) continue;  // the next one on PATH
          if (choice->kind == PyenvChoice::Kind::version) {
            add(choice->path, InterpreterOrigin::path, fmt::format("{} on PATH (pyenv shim for {})", name, choice->path));
          }
        } else {
          add(candidate, InterpreterOrigin::path, fmt::format("{} on PATH ({})", name, candidate));
        }
        break;
      }
    }
  }
  for (const auto& p : extra) add(p, InterpreterOrigin::option, "--python " + p);
  return out;
}

sys::Expected<InterpreterInfo> parse_interpreter_query(std::string_view out, const sys::FileSystem& fs) {
  auto parts = util::split(out, '\0');
  if (parts.size() < 4) return sys::Error{sys::ErrorCode::invalid, "unexpected output from the sys.path query"};
  InterpreterInfo info;
  info.version = std::string(parts[0]);
  info.prefix = std::string(parts[1]);
  std::string base_prefix(parts[2]);
  std::string user_site(parts[3]);
  for (std::size_t i = 4; i < parts.size(); ++i) info.sys_path.emplace_back(parts[i]);
  bool system_site = info.prefix == base_prefix ||
                     std::any_of(info.sys_path.begin(), info.sys_path.end(), [&](const std::string& p) {
                       return p.starts_with(base_prefix + "/") &&
                              (p.ends_with("site-packages") || p.ends_with("dist-packages"));
                     });
  if (!user_site.empty() && system_site && fs.exists(user_site)) {
    auto at = std::find_if(info.sys_path.begin(), info.sys_path.end(), [](const std::string& p) {
      return p.ends_with("site-packages") || p.ends_with("dist-packages");
    });
    info.sys_path.insert(at, user_site);
  }
  return info;
}

sys::Expected<InterpreterInfo> run_interpreter_query(const std::string& interpreter, int timeout_ms) {
  sys::ProcessOptions o;
  o.argv = {interpreter, "-I", "-c", std::string(k_query_script)};
  o.cwd = "/";
  o.timeout = std::chrono::milliseconds(timeout_ms);
  o.output_limit = 1 << 20;
  auto r = sys::run_process(o);
  if (!r) return r.error();
  if (r->timed_out) return sys::Error{sys::ErrorCode::timeout, fmt::format("{} -I -c: no answer in {} ms", interpreter, timeout_ms)};
  if (!r->ok()) {
    auto err = util::trim(r->err);
    if (err.size() > 300) err = err.substr(err.size() - 300);
    return sys::Error{sys::ErrorCode::io, fmt::format("{} -I -c failed ({}): {}", interpreter,
                                                       r->term_signal ? sys::signal_name(r->term_signal)
                                                                      : "exit " + std::to_string(r->exit_code),
                                                       err)};
  }
  auto live = sys::make_rooted_file_system("/");
  return parse_interpreter_query(r->out, *live);
}

}  // namespace gpudoctor::probe
