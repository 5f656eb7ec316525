#include <cli/gather.hpp>

#include <probe/driver/driver_probe.hpp>
#include <probe/probe.hpp>

#include <cstdlib>
#include <filesystem>
#include <future>

namespace gpudoctor::cli {
namespace {

// The libraries the driver probe asks: named by GPUDOCTOR_*_LIBRARY (unusual installs, test doubles).
probe::DriverProbeOptions driver_probe_options(const GatherOptions& options) {
  probe::DriverProbeOptions o;
  o.timeout = std::chrono::milliseconds(options.timeout_ms);
  if (const char* v = std::getenv("GPUDOCTOR_NVML_LIBRARY"); v && *v) o.nvml_library = v;
  if (const char* v = std::getenv("GPUDOCTOR_CUDA_LIBRARY"); v && *v) o.cuda_library = v;
  if (const char* v = std::getenv("GPUDOCTOR_CUDART_LIBRARY"); v && *v) o.cudart_library = v;
  return o;
}

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
  // The interpreters start while the driver is asked: both mostly wait on child processes.
  auto python = std::async(std::launch::async, probe::probe_python, std::cref(fs), f.environment.env,
                           python_probe_options(fs, options));
  // Libraries are loaded on the live machine only; a replayed tree's answers were read above.
  if (fs.is_live()) f.driver = probe::probe_driver(fs, driver_probe_options(options));
  f.framework = python.get();
  return f;
}

}  // namespace gpudoctor::cli
