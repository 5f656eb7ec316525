// The Python-environment probe: finds the interpreters a user runs (the active venv or conda env,
// python3/python on PATH, --python PATH), learns each one's sys.path, lists its distributions and
// every copy of each framework's import package, and reads what each build says about itself
// from its files. Nothing is imported: the only thing executed (live machine only) is
// `python -I -c` printing sys.path, in parallel across interpreters, with a timeout. Under --root
// nothing is executed: sys.path comes from what `gpudoctor capture` recorded
// (/.gpudoctor/python.json) or from the layout of the files (pyvenv.cfg, lib/pythonX.Y/site-packages).
//
// Thread-safety: probe_python may run its interpreters on several threads; FileSystem's const
// methods are thread-safe.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <facts/framework_facts.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe {

inline constexpr std::string_view k_python_capture_path = "/.gpudoctor/python.json";

enum class Execution { allowed, forbidden };
enum class DeepImport { off, on };

struct PythonProbeOptions {
  std::vector<std::string> interpreters;  // --python PATH, in order
  Execution execution = Execution::allowed;
  DeepImport deep = DeepImport::off;
  int timeout_ms = 5000;
  std::string cwd;  // the working directory to look for shadowing modules in; "" for none
};

struct InterpreterCandidate {
  std::string path;
  facts::InterpreterOrigin origin = facts::InterpreterOrigin::path;
  std::string label;
  bool operator==(const InterpreterCandidate&) const = default;
};

// The interpreters to look at, in the order a user most likely runs them, one per environment.
std::vector<InterpreterCandidate> discover_interpreters(const sys::FileSystem& fs,
                                                        const std::map<std::string, std::string>& env,
                                                        const std::vector<std::string>& extra,
                                                        const std::string& cwd);

// What `python -I -c` prints about itself, or what the layout says.
struct InterpreterInfo {
  std::string version;  // "3.11"
  std::string prefix;
  std::vector<std::string> sys_path;
  std::vector<std::string> notes;  // where sys.path may differ from what the interpreter would say
};
sys::Expected<InterpreterInfo> run_interpreter_query(const std::string& interpreter, int timeout_ms);
// sys.path read from the interpreter's files (python_sys_path.cpp): nothing is executed.
sys::Expected<InterpreterInfo> static_interpreter_info(const sys::FileSystem& fs, const std::string& interpreter,
                                                       const std::map<std::string, std::string>& env);
// An environment variable's value; nullopt when unset or empty.
std::optional<std::string> env_value(const std::map<std::string, std::string>& env, const char* name);
// pyvenv.cfg's key = value lines.
std::map<std::string, std::string> read_pyvenv_cfg(const sys::FileSystem& fs, const std::string& path);
// Parses the query's output (NUL-separated: version, prefix, user site, sys.path...).
sys::Expected<InterpreterInfo> parse_interpreter_query(std::string_view out, const sys::FileSystem& fs);

// Fills conda_meta and conda_packages of `env` from PREFIX/conda-meta (file names only: the JSON
// files list every file of the package and run to megabytes).
void read_conda_meta(const sys::FileSystem& fs, facts::PythonEnvironment& env);

// Fills distributions, builds and shadows of `env` from its sys_path (conda packages included).
void scan_python_environment(const sys::FileSystem& fs, const std::string& cwd, facts::PythonEnvironment& env);

// --deep: imports each framework found in `env` in a real, isolated interpreter.
facts::Known<std::vector<facts::DeepReport>> run_deep_import(const facts::PythonEnvironment& env, int timeout_ms);
// Parses the deep script's output (one JSON object per line).
std::vector<facts::DeepReport> parse_deep_output(std::string_view out);

facts::FrameworkFacts probe_python(const sys::FileSystem& fs,
                                   const facts::Known<std::map<std::string, std::string>>& env,
                                   const PythonProbeOptions& options);

// The document `gpudoctor capture` stores at k_python_capture_path.
std::string python_capture_document(const facts::FrameworkFacts& f);

}  // namespace gpudoctor::probe
