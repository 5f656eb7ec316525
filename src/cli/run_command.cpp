// gpudoctor run [--json FILE] [--html FILE] [--interval S] -- CMD...
// Runs CMD as if gpudoctor were not there (its terminal, its output, its exit status), samples its
// process tree meanwhile, and prints the verdict to stderr once it has exited.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <optional>

#include <cli/command.hpp>
#include <cli/run_report.hpp>
#include <sys/child.hpp>
#include <sys/file_system.hpp>
#include <sys/subprocess.hpp>
#include <watch/gpu_source.hpp>
#include <watch/output_log.hpp>
#include <watch/sampler.hpp>

namespace gpudoctor::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct RunOptions {
  std::vector<std::string> argv;
  std::string json_file;
  std::string html_file;
  double interval_s = 0.5;
};

class RunObserver final : public sys::ChildObserver {
 public:
  RunObserver(const sys::FileSystem& fs, watch::GpuSource& gpu, watch::Timeline& timeline, watch::OutputLog& log)
      : m_fs(fs), m_gpu(gpu), m_timeline(timeline), m_log(log), m_start(Clock::now()) {}

  void on_started(int pid) override {
    m_timeline.root_pid = pid;
    m_sampler.emplace(m_fs, pid, m_gpu,
                      watch::SamplerOptions{::sysconf(_SC_CLK_TCK), ::sysconf(_SC_PAGESIZE)});
    on_tick();
  }
  void on_output(sys::OutputStream stream, std::string_view bytes) override {
    m_log.feed(stream == sys::OutputStream::out ? watch::LogStream::out : watch::LogStream::err, bytes, now());
  }
  void on_tick() override {
    watch::Sample s = m_sampler->sample(now());
    if (!s.processes.empty()) m_timeline.samples.push_back(std::move(s));
  }
  std::vector<std::string> executables() const { return m_sampler ? m_sampler->executables() : std::vector<std::string>{}; }
  double now() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }

 private:
  const sys::FileSystem& m_fs;
  watch::GpuSource& m_gpu;
  watch::Timeline& m_timeline;
  watch::OutputLog& m_log;
  Clock::time_point m_start;
  std::optional<watch::Sampler> m_sampler;
};

int run_run(const RunOptions& o) {
  auto fs = sys::make_rooted_file_system("/");
  auto gpu = make_run_gpu_source(*fs, o.interval_s);
  watch::Timeline timeline;
  timeline.subject = watch::Subject::child;
  timeline.command = o.argv;
  timeline.interval_s = o.interval_s;
  watch::OutputLog log;
  RunObserver observer(*fs, *gpu, timeline, log);

  sys::AttachedOptions a;
  a.argv = o.argv;
  a.mode = sys::terminal_mode_for_stdout();
  a.tick = std::chrono::milliseconds(static_cast<long long>(o.interval_s * 1000));
  double cpu_before = own_cpu_seconds();
  auto exit = sys::run_attached(a, observer);
  if (!exit) {
    std::cerr << "gpudoctor run: " << exit.error().message << '\n';
    // As a shell reports a command it cannot run.
    return exit.error().code == sys::ErrorCode::not_found ? 127 : 126;
  }
  timeline.duration_s = observer.now();
  log.finish(timeline.duration_s);
  timeline.events = log.events();
  timeline.exit_status = exit->shell_status();
  timeline.term_signal = exit->term_signal;
  timeline.events.push_back({timeline.duration_s, watch::EventKind::exit, "exit",
                             exit->shell_status() == 0 ? facts::Severity::info : facts::Severity::warning,
                             exit->term_signal != 0 ? "killed by " + sys::signal_name(exit->term_signal)
                                                    : "exit status " + std::to_string(exit->exit_code)});
  finish_gpu_source(gpu, cpu_before, timeline);
  timeline.executables = observer.executables();

  report_run(timeline, log, {"run", o.json_file, o.html_file});
  return exit->shell_status();
}

}  // namespace

CommandRunner setup_run(CLI::App& sub) {
  auto o = std::make_shared<RunOptions>();
  sub.add_option("--json", o->json_file, "Write the verdict, findings and sampled timeline as JSON to FILE");
  sub.add_option("--html", o->html_file, "Write one self-contained HTML page (verdict, findings, timeline chart) to FILE");
  sub.add_option("--interval", o->interval_s, "Seconds between samples (default 0.5)")->check(CLI::Range(0.05, 3600.0));
  // After "--" every word is the command's, options included (CLI11 takes them all as positionals).
  sub.add_option("cmd", o->argv, "The command and its arguments, after --")->required();
  sub.footer("Example: gpudoctor run --html run.html -- python train.py --epochs 3");
  return [o] { return run_run(*o); };
}

}  // namespace gpudoctor::cli
