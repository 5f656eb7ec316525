// The end of `gpudoctor run` and `gpudoctor watch`: the observed timeline joined with this
// machine's findings (every layer's checks) and the matched log messages into the verdict, printed
// to stderr (the child owned stdout) and written as JSON and self-contained HTML where asked.
#pragma once

#include <memory>
#include <string>

#include <sys/file_system.hpp>
#include <watch/gpu_source.hpp>
#include <watch/output_log.hpp>
#include <watch/timeline.hpp>

namespace gpudoctor::cli {

struct RunReportOptions {
  std::string command;    // "run" or "watch"
  std::string json_file;  // "" for none
  std::string html_file;  // "" for none
};

// Returns k_exit_ok, k_exit_findings (the verdict or a finding it names is an error), or
// k_exit_usage when a report file could not be written. `run` exits with the child's status anyway.
int report_run(const watch::Timeline& timeline, const watch::OutputLog& log, const RunReportOptions& options);

// The GPU figures' source for run and watch: NVML through a `gpudoctor __sample-nvml` helper, the
// library named by GPUDOCTOR_NVML_LIBRARY (default libnvidia-ml.so.1; "none" turns sampling off).
// `fs` reads /proc and must outlive the source.
std::unique_ptr<watch::GpuSource> make_run_gpu_source(const sys::FileSystem& fs, double interval_s);

// Ends GPU sampling (the helper is stopped): the source's last description goes into the timeline
// (it may have changed during the run: NVML stopped answering), and watching's cost, our CPU since
// `cpu_before` plus the source's helpers', into observer_cpu_seconds.
void finish_gpu_source(std::unique_ptr<watch::GpuSource>& gpu, double cpu_before, watch::Timeline& timeline);

// gpudoctor's own CPU time so far (user + system), in seconds.
double own_cpu_seconds();

}  // namespace gpudoctor::cli
