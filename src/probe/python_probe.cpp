// Orchestrates the Python-environment probe: discovery, sys.path for every interpreter at once (one
// thread each: the interpreters' start-up dominates), then the file scan of each environment.
#include <probe/python_probe.hpp>

#include <probe/frameworks/toolchain_probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <future>

namespace gpudoctor::probe {
namespace {

using facts::Known;
using facts::PythonEnvironment;

// Importing torch or tensorflow from a cold page cache takes seconds; the probe timeout is for sys.path.
constexpr int k_deep_min_timeout_ms = 60000;

// PYTHONPATH entries come first on a normal run's sys.path (after the script's directory), and
// `-I` drops them; relative entries are relative to the working directory.
void prepend_pythonpath(std::vector<std::string>& sys_path, const std::map<std::string, std::string>& env,
                        const std::string& cwd) {
  auto it = env.find("PYTHONPATH");
  if (it == env.end() || it->second.empty()) return;
  std::vector<std::string> front;
  for (auto part : util::split(it->second, ':')) {
    if (part.empty()) continue;
    if (part[0] == '/') front.emplace_back(part);
    else if (!cwd.empty()) front.push_back(util::join_path(cwd, part));
  }
  sys_path.insert(sys_path.begin(), front.begin(), front.end());
}

// Entries that hold packages (existing directories past the standard library) that one list has and
// the other lacks: "+/x" only in the interpreter's, "-/y" only in the files'.
std::vector<std::string> sys_path_differences(const std::vector<std::string>& from_files, const std::vector<std::string>& asked,
                                              const sys::FileSystem& fs) {
  std::vector<std::string> out;
  auto holds_packages = [&](const std::string& p) { return !p.empty() && !p.ends_with(".zip") && fs.exists(p); };
  for (const auto& p : asked)
    if (holds_packages(p) && std::find(from_files.begin(), from_files.end(), p) == from_files.end()) out.push_back("+" + p);
  for (const auto& p : from_files)
    if (holds_packages(p) && std::find(asked.begin(), asked.end(), p) == asked.end()) out.push_back("-" + p);
  return out;
}

// Captured interpreters: {"cwd": "...", "environments": [{interpreter, origin, label, version,
// prefix, sys_path}]}.
std::optional<nlohmann::json> read_capture(const sys::FileSystem& fs) {
  auto text = fs.read_text(k_python_capture_path, 4 << 20);
  if (!text) return std::nullopt;
  auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  return j;
}

}  // namespace

facts::FrameworkFacts probe_python(const sys::FileSystem& fs, const Known<std::map<std::string, std::string>>& env,
                                   const PythonProbeOptions& options) {
  facts::FrameworkFacts f;
  std::map<std::string, std::string> vars = env.value_or({});
  std::optional<nlohmann::json> captured;
  if (options.execution == Execution::forbidden) captured = read_capture(fs);

  std::string cwd = options.cwd;
  if (captured && captured->contains("cwd") && (*captured)["cwd"].is_string()) cwd = (*captured)["cwd"];
  f.cwd = cwd.empty() ? Known<std::string>::unknown("the working directory was not recorded") : Known<std::string>(cwd);

  std::vector<PythonEnvironment> envs;
  if (captured && captured->contains("environments")) {
    envs = (*captured)["environments"].get<std::vector<PythonEnvironment>>();
    for (auto& e : envs) {
      e.sys_path_source = facts::SysPathSource::capture;
      e.distributions.clear();
      e.builds.clear();
      e.shadows.clear();
      e.deep = Known<std::vector<facts::DeepReport>>::unknown("--deep does not run under --root");
    }
  } else {
    for (auto& c : discover_interpreters(fs, vars, options.interpreters, cwd)) {
      PythonEnvironment e;
      e.interpreter = c.path;
      e.origin = c.origin;
      e.label = c.label;
      envs.push_back(std::move(e));
    }
    // sys.path comes from the interpreters' files: nothing of the user's environment runs (a .pth
    // file's import lines included). --deep also asks each interpreter, as a cross-check, and the
    // interpreter's own answer wins where they differ.
    bool ask = options.execution == Execution::allowed && options.deep == DeepImport::on;
    std::vector<std::future<sys::Expected<InterpreterInfo>>> queries;
    if (ask) {
      for (const auto& e : envs)
        queries.push_back(std::async(std::launch::async, run_interpreter_query, e.interpreter, options.timeout_ms));
    }
    for (std::size_t i = 0; i < envs.size(); ++i) {
      auto& e = envs[i];
      auto info = static_interpreter_info(fs, e.interpreter, vars);
      e.sys_path_source = facts::SysPathSource::layout;
      if (ask) {
        auto asked = queries[i].get();
        if (asked) {
          if (info) {
            for (const auto& d : sys_path_differences(info->sys_path, asked->sys_path, fs))
              asked->notes.push_back("read from files, sys.path differs from the interpreter's: " + d);
            asked->notes.insert(asked->notes.begin(), info->notes.begin(), info->notes.end());
          }
          info = std::move(asked);
          e.sys_path_source = facts::SysPathSource::executed;
        } else if (info) {
          info->notes.push_back("the interpreter did not answer (" + asked.error().message + "); sys.path read from its files");
        }
      }
      if (!info) {
        e.sys_path = Known<std::vector<std::string>>::unknown(info.error().message);
        continue;
      }
      e.version = info->version;
      e.prefix = info->prefix;
      e.sys_path_notes = info->notes;
      prepend_pythonpath(info->sys_path, vars, cwd);
      e.sys_path = std::move(info->sys_path);
    }
  }
  // Scanning is file reads only; the environments run one after another so that a shared
  // dist-packages directory is not read by two threads for nothing.
  for (auto& e : envs) scan_python_environment(fs, cwd, e);
  std::optional<loader::LoaderContext> loader_context;  // /etc/ld.so.cache is read only when needed
  for (auto& e : envs) {
    for (auto& b : e.builds) {
      bool dlopens = b.framework == facts::Framework::tensorflow && b.kind == facts::BuildKind::cuda;
      if (b.gpu_libraries.empty() && !dlopens) continue;
      if (!loader_context) {
        auto ld = vars.find("LD_LIBRARY_PATH");
        loader_context = loader::make_loader_context(fs, ld == vars.end() ? std::string_view() : ld->second);
      }
      frameworks::probe_build_libraries(fs, *loader_context, b);
    }
  }
  if (options.deep == DeepImport::on && options.execution == Execution::allowed) {
    std::vector<std::future<Known<std::vector<facts::DeepReport>>>> deep;
    for (const auto& e : envs) deep.push_back(std::async(std::launch::async, run_deep_import, std::cref(e), std::max(options.timeout_ms, k_deep_min_timeout_ms)));
    for (std::size_t i = 0; i < envs.size(); ++i) envs[i].deep = deep[i].get();
  }
  f.environments = std::move(envs);
  return f;
}

std::string python_capture_document(const facts::FrameworkFacts& f) {
  nlohmann::json j = nlohmann::json::object();
  if (f.cwd) j["cwd"] = *f.cwd;
  nlohmann::json envs = nlohmann::json::array();
  if (f.environments) {
    for (const auto& e : *f.environments) {
      envs.push_back({{"interpreter", e.interpreter},
                      {"origin", e.origin},
                      {"label", e.label},
                      {"version", e.version},
                      {"prefix", e.prefix},
                      {"sys_path", e.sys_path}});
    }
  }
  j["environments"] = std::move(envs);
  return j.dump(2) + "\n";
}

}  // namespace gpudoctor::probe
