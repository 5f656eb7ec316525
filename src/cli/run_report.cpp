#include <cli/run_report.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include <checks/check.hpp>
#include <cli/command.hpp>
#include <cli/gather.hpp>
#include <cli/machine.hpp>
#include <cli/output.hpp>
#include <render/html_renderer.hpp>
#include <render/json_renderer.hpp>
#include <render/text_renderer.hpp>
#include <sys/clock.hpp>
#include <sys/subprocess.hpp>
#include <watch/nvml_gpu_source.hpp>
#include <watch/verdict.hpp>
#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

render::ColorMode stderr_color() {
  const char* no_color = std::getenv("NO_COLOR");
  bool tty = ::isatty(STDERR_FILENO) == 1;
  return tty && (no_color == nullptr || *no_color == '\0') ? render::ColorMode::always : render::ColorMode::never;
}

bool write_file(const std::string& path, const std::string& content, const char* what) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) {
    std::cerr << "gpudoctor: could not write the " << what << " report to " << util::printable(path) << '\n';
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<watch::GpuSource> make_run_gpu_source(const sys::FileSystem& fs, double interval_s) {
  watch::NvmlSourceOptions o;
  if (const char* v = std::getenv("GPUDOCTOR_NVML_LIBRARY"); v && *v) o.library = v;
  // One reading may wait up to a fifth of the interval: the child's output waits meanwhile.
  o.answer_wait = std::chrono::milliseconds(std::clamp(static_cast<long long>(interval_s * 200), 10LL, 200LL));
  o.hang_timeout = std::max(std::chrono::milliseconds(2000),
                            std::chrono::milliseconds(static_cast<long long>(interval_s * 4000)));
  auto self = sys::self_executable();
  if (!self) {
    return watch::make_unavailable_gpu_source("NVML sampling could not start: " + self.error().message);
  }
  return watch::make_nvml_gpu_source(fs, *self, o);
}

void finish_gpu_source(std::unique_ptr<watch::GpuSource>& gpu, double cpu_before, watch::Timeline& timeline) {
  timeline.observer_cpu_seconds = own_cpu_seconds() - cpu_before + gpu->helper_cpu_seconds();
  timeline.gpu_source = gpu->description();
  gpu.reset();
}

double own_cpu_seconds() {
  struct rusage ru {};
  ::getrusage(RUSAGE_SELF, &ru);
  auto secs = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; };
  return secs(ru.ru_utime) + secs(ru.ru_stime);
}

int report_run(const watch::Timeline& timeline, const watch::OutputLog& log, const RunReportOptions& o) {
  facts::Facts machine_facts;
  std::vector<facts::Finding> machine;
  std::vector<std::string> notes;
  if (auto m = Machine::open("/")) {
    GatherOptions g;
    // The run's own interpreters are the ones whose framework builds explain it.
    for (const auto& exe : timeline.executables) {
      auto slash = exe.rfind('/');
      if (exe.compare(slash == std::string::npos ? 0 : slash + 1, 6, "python") == 0) g.python.push_back(exe);
    }
    machine_facts = gather_facts(m->fs(), g);
    machine = checks::run_checks(machine_facts);
  } else {
    notes.push_back("the machine's other layers were not checked: " + m.error().message);
  }
  watch::Verdict verdict = watch::decide(timeline, machine, log.findings());
  notes.insert(notes.end(), verdict.notes.begin(), verdict.notes.end());
  if (timeline.samples.size() < 2) {
    notes.push_back(fmt::format("only {} sample(s) were taken: a run this short may have used the GPU between samples",
                                timeline.samples.size()));
  }
  if (timeline.observer_cpu_seconds.known() && timeline.duration_s >= 1.0) {
    notes.push_back(fmt::format("watching cost {:.3f} s of CPU over {:.1f} s ({:.2f} % of one core)",
                                *timeline.observer_cpu_seconds, timeline.duration_s,
                                100.0 * *timeline.observer_cpu_seconds / timeline.duration_s));
  }

  render::Report report;
  report.command = o.command;
  report.host = machine_facts.meta.hostname.value_or("unknown");
  report.time = sys::now_utc_iso8601();
  report.findings = std::move(verdict.findings);
  report.facts = timeline;
  report.notes = std::move(notes);

  std::cerr << "\ngpudoctor " << o.command << ": verdict\n";
  render::TextRenderer(stderr_color()).render(report, std::cerr);
  std::cerr.flush();

  bool ok = true;
  if (!o.json_file.empty()) {
    auto j = render::report_to_json(report);
    j["verdict"] = !report.findings.empty() && report.findings.front().layer == facts::Layer::run
                       ? nlohmann::json(report.findings.front().id)
                       : nlohmann::json(nullptr);
    j["timeline"] = std::move(j["facts"]);
    j.erase("facts");
    j["machine_facts"] = machine_facts;
    ok &= write_file(o.json_file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "JSON");
  }
  if (!o.html_file.empty()) {
    std::ostringstream html;
    render::HtmlRenderer().render(report, html);
    ok &= write_file(o.html_file, html.str(), "HTML");
  }
  if (!ok) return k_exit_usage;
  return exit_status(report);
}

}  // namespace gpudoctor::cli
