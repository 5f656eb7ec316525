#include <cli/gather.hpp>

#include <probe/driver/driver_probe.hpp>
#include <probe/probe.hpp>

#include <chrono>
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

facts::Facts gather_facts(const sys::FileSystem& fs, const GatherOptions& options, GatherTimings* timings) {
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  auto start = Clock::now();
  facts::Facts f = probe::probe_files(fs);
  double files_s = seconds_since(start);
  // The interpreters start while the driver is asked: both mostly wait on child processes.
  auto python_start = Clock::now();
  auto python = std::async(std::launch::async, [&fs, env = f.environment.env, o = python_probe_options(fs, options),
                                                python_start, &seconds_since] {
    auto facts = probe::probe_python(fs, env, o);
    return std::pair(std::move(facts), seconds_since(python_start));
  });
  // Libraries are loaded on the live machine only; a replayed tree's answers were read above.
  auto driver_start = Clock::now();
  if (fs.is_live()) f.driver = probe::probe_driver(fs, driver_probe_options(options));
  double driver_s = seconds_since(driver_start);
  auto [framework, python_s] = python.get();
  f.framework = std::move(framework);
  if (timings) *timings = {files_s, python_s, driver_s};
  return f;
}

}  // namespace gpudoctor::cli
