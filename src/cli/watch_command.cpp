// gpudoctor watch --pid PID [--json FILE] [--html FILE] [--interval S]
// Samples a running process tree (not our child) until its root exits or we are interrupted, then
// prints the verdict to stderr. Its output is not ours to see, so no log messages are matched.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <chrono>
#include <iostream>

#include <cli/command.hpp>
#include <cli/run_report.hpp>
#include <sys/file_system.hpp>
#include <sys/interrupt.hpp>
#include <watch/gpu_source.hpp>
#include <watch/output_log.hpp>
#include <watch/sampler.hpp>

namespace gpudoctor::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct WatchOptions {
  int pid = 0;
  std::string json_file;
  std::string html_file;
  double interval_s = 0.5;
};

std::vector<std::string> cmdline_of(const sys::FileSystem& fs, int pid) {
  std::vector<std::string> argv;
  auto text = fs.read_text("/proc/" + std::to_string(pid) + "/cmdline", 64 * 1024);
  if (!text) return argv;
  std::string_view rest = *text;
  while (!rest.empty()) {
    auto nul = rest.find('\0');
    argv.emplace_back(rest.substr(0, nul));
    if (nul == std::string_view::npos) break;
    rest.remove_prefix(nul + 1);
  }
  return argv;
}

int run_watch(const WatchOptions& o) {
  auto fs = sys::make_rooted_file_system("/");
  std::string proc = "/proc/" + std::to_string(o.pid);
  if (!fs->exists(proc + "/stat")) {
    std::cerr << "gpudoctor watch: no process " << o.pid << '\n';
    return k_exit_usage;
  }
  auto gpu = make_run_gpu_source(*fs, o.interval_s);
  watch::Timeline timeline;
  timeline.subject = watch::Subject::existing_process;
  timeline.command = cmdline_of(*fs, o.pid);
  timeline.root_pid = o.pid;
  timeline.interval_s = o.interval_s;
  timeline.exit_status = facts::Known<int>::unknown("not our child: its exit status is its parent's to read");
  watch::Sampler sampler(*fs, o.pid, *gpu, watch::SamplerOptions{::sysconf(_SC_CLK_TCK), ::sysconf(_SC_PAGESIZE)});
  sys::Interrupt interrupt;
  const auto start = Clock::now();
  const auto interval = std::chrono::milliseconds(static_cast<long long>(o.interval_s * 1000));
  double cpu_before = own_cpu_seconds();
  auto now = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::string why_stopped = "the watched process exited";
  while (true) {
    watch::Sample s = sampler.sample(now());
    if (s.processes.empty()) break;
    timeline.samples.push_back(std::move(s));
    if (interrupt.wait_for(interval)) {
      why_stopped = "watching was interrupted";
      break;
    }
  }
  timeline.duration_s = now();
  timeline.events.push_back({timeline.duration_s, watch::EventKind::note, "stop", facts::Severity::info, why_stopped});
  finish_gpu_source(gpu, cpu_before, timeline);
  timeline.executables = sampler.executables();
  watch::OutputLog no_output;
  return report_run(timeline, no_output, {"watch", o.json_file, o.html_file});
}

}  // namespace

CommandRunner setup_watch(CLI::App& sub) {
  auto o = std::make_shared<WatchOptions>();
  sub.add_option("--pid", o->pid, "The root of the process tree to watch")->required()->check(CLI::PositiveNumber);
  sub.add_option("--json", o->json_file, "Write the verdict, findings and sampled timeline as JSON to FILE");
  sub.add_option("--html", o->html_file, "Write one self-contained HTML page (verdict, findings, timeline chart) to FILE");
  sub.add_option("--interval", o->interval_s, "Seconds between samples (default 0.5)")->check(CLI::Range(0.05, 3600.0));
  return [o] { return run_watch(*o); };
}

}  // namespace gpudoctor::cli
