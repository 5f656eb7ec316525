// gpudoctor check [--root DIR|FILE.tar.gz] [--facts FILE] [--json|--markdown] [--color WHEN] [--python PATH]... [--deep]
//                 [--prometheus FILE] [--slurm-health [--dry-run] [--node NAME]]
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include <checks/check.hpp>
#include <cli/command.hpp>
#include <cli/gather.hpp>
#include <cli/machine.hpp>
#include <cli/output.hpp>
#include <fleet/slurm.hpp>
#include <render/prometheus.hpp>
#include <sys/atomic_file.hpp>
#include <sys/clock.hpp>
#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

struct CheckOptions {
  std::string root = "/";
  std::string facts_file;
  bool json = false;
  bool markdown = false;
  std::string color = "auto";
  double timeout_s = 5.0;
  std::vector<std::string> python;
  bool deep = false;
  std::string prometheus;
  bool slurm_health = false;
  bool dry_run = false;
  std::string node;
};

// "%n" in --root is this node's Slurm name, so that `fleet --slurm -- --root /shared/captures/%n.tar.gz`
// replays each node's own capture; "%%" is a '%'.
std::string expand_root(const std::string& root) {
  if (root.find('%') == std::string::npos) return root;
  std::string out;
  for (std::size_t i = 0; i < root.size(); ++i) {
    if (root[i] == '%' && i + 1 < root.size() && (root[i + 1] == 'n' || root[i + 1] == '%')) {
      out += root[i + 1] == 'n' ? fleet::this_slurm_node() : "%";
      ++i;
    } else {
      out += root[i];
    }
  }
  return out;
}

// Slurm's HealthCheckProgram in the manner of LBNL NHC: exit 0 healthy, 1 unhealthy (drained), and
// the usual 2 when gpudoctor could not do its job.
int slurm_health(const CheckOptions& o, const render::Report& report) {
  std::string node = o.node.empty() ? fleet::this_slurm_node() : o.node;
  auto timeout = std::chrono::milliseconds(static_cast<int>(o.timeout_s * 1000) + 10000);
  auto state = fleet::slurm_node_state(node, timeout);
  if (!state) {
    std::cerr << "gpudoctor check --slurm-health: " << util::printable(state.error().message) << '\n';
    return k_exit_usage;
  }
  fleet::HealthPlan plan = fleet::plan_health(*state, report.findings);
  // After a --json or --markdown report, the action goes to stderr so that stdout stays one document.
  std::ostream& log = o.json || o.markdown ? std::cerr : std::cout;
  if (o.dry_run) {
    log << "gpudoctor: " << util::printable(plan.explanation) << '\n';
    if (!plan.scontrol.empty()) {
      std::string line = "would run:";
      for (const auto& a : plan.scontrol) line += a.find(' ') == std::string::npos ? " " + a : " '" + a + "'";
      log << util::printable(line) << '\n';
    }
  } else {
    auto applied = fleet::apply_health_plan(plan, timeout);
    if (!applied) {
      std::cerr << "gpudoctor check --slurm-health: " << util::printable(applied.error().message) << '\n';
      return k_exit_usage;
    }
    log << "gpudoctor: " << util::printable(plan.explanation) << '\n';
  }
  return exit_status(report);
}

int run_check(const CheckOptions& o) {
  auto started = std::chrono::steady_clock::now();
  double started_unix = sys::now_unix_seconds();
  GatherTimings timings;
  facts::Facts f;
  if (!o.facts_file.empty()) {
    auto loaded = load_facts_file(o.facts_file);
    if (!loaded) {
      std::cerr << "gpudoctor check: " << util::printable(loaded.error().message) << '\n';
      return k_exit_usage;
    }
    f = std::move(loaded.value());
  } else {
    auto machine = Machine::open(expand_root(o.root));
    if (!machine) {
      std::cerr << "gpudoctor check: " << util::printable(machine.error().message) << '\n';
      return k_exit_usage;
    }
    GatherOptions g;
    g.timeout_ms = static_cast<int>(o.timeout_s * 1000);
    g.python = o.python;
    g.deep = o.deep ? probe::DeepImport::on : probe::DeepImport::off;
    f = gather_facts(machine->fs(), g, &timings);
    f.meta.root = machine->display_root();
  }
  render::Report report;
  report.command = "check";
  report.host = f.meta.hostname.value_or("unknown");
  report.time = sys::now_utc_iso8601();
  report.root = f.meta.root;
  report.findings = checks::run_checks(f);
  report.facts = f;
  Format format = o.json ? Format::json : o.markdown ? Format::markdown : Format::text;
  make_renderer(format, color_mode(o.color))->render(report, std::cout);
  std::cout.flush();
  if (!o.prometheus.empty()) {
    render::CheckMetrics m;
    m.report = &report;
    m.facts = &f;
    m.durations = {{"files", timings.files_s}, {"python", timings.python_s}, {"driver", timings.driver_s}};
    m.check_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    m.unix_time = started_unix;
    auto written = sys::write_file_atomically(o.prometheus, render::check_metrics(m));
    if (!written) {
      std::cerr << "gpudoctor check: " << util::printable(written.error().message) << '\n';
      return k_exit_usage;
    }
  }
  if (o.slurm_health) return slurm_health(o, report);
  return exit_status(report);
}

}  // namespace

CommandRunner setup_check(CLI::App& sub) {
  auto o = std::make_shared<CheckOptions>();
  sub.add_option("--root", o->root, "Diagnose a captured machine: a directory laid out like / or a capture .tar.gz");
  sub.add_option("--facts", o->facts_file, "Diagnose a `gpudoctor facts --json` (or `check --json`) dump");
  auto* json = sub.add_flag("--json", o->json, "Print one JSON object with a findings array and the facts");
  sub.add_flag("--markdown", o->markdown, "Print Markdown, for bug reports")->excludes(json);
  sub.add_option("--color", o->color, "Colour: auto, always, never")->check(CLI::IsMember({"auto", "always", "never"}));
  sub.add_option("--timeout", o->timeout_s, "Seconds each child-process probe may take")->check(CLI::Range(0.1, 600.0));
  sub.add_option("--python", o->python, "Also diagnose this Python interpreter (repeatable)");
  sub.add_flag("--deep", o->deep,
               "Also import each framework in an isolated interpreter and compare what it says with the static reading");
  sub.add_option("--prometheus", o->prometheus,
                 "Also write the result in Prometheus' text format to FILE, atomically (node_exporter's textfile collector)");
  auto* health = sub.add_flag("--slurm-health", o->slurm_health,
                              "Slurm HealthCheckProgram: drain this node on an error finding, resume it once healthy if "
                              "gpudoctor drained it; exit 0 healthy, 1 not");
  sub.add_flag("--dry-run", o->dry_run, "With --slurm-health: print the scontrol command instead of running it")->needs(health);
  sub.add_option("--node", o->node, "With --slurm-health: the Slurm node name (default: SLURMD_NODENAME, else the short host name)")
      ->needs(health);
  return [o] { return run_check(*o); };
}

}  // namespace gpudoctor::cli
