#include <cli/gather.hpp>

#include <probe/probe.hpp>

#include <filesystem>

namespace gpudoctor::cli {
namespace {

probe::PythonProbeOptions python_probe_options(const sys::FileSystem& fs, const GatherOptions& options) {
  probe::PythonProbeOptions o;
  o.interpreters = options.python;
  o.execution = fs.is_live() ? probe::Execution::allowed : probe::Execution::forbidden;
  o.deep = options.deep;
  o.timeout_ms = options.timeout_ms;
  std::error_code ec;
  if (fs.is_live()) o.cwd = std::filesystem::current_path(ec).string();
  return o;
}

}  // namespace

facts::Facts gather_facts(const sys::FileSystem& fs, const GatherOptions& options) {
  facts::Facts f = probe::probe_files(fs);
  f.framework = probe::probe_python(fs, f.environment.env, python_probe_options(fs, options));
  return f;
}

}  // namespace gpudoctor::cli
