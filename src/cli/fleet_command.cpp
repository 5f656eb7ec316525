// gpudoctor fleet [REPORT...|DIR|-] [--json|--markdown|--html] [--prometheus FILE]
// gpudoctor fleet --slurm [--partition P] [--nodes LIST] [--deadline S] [--gpudoctor PATH] [-- CHECK ARGS...]
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <iostream>

#include <cli/command.hpp>
#include <fleet/collect.hpp>
#include <fleet/fleet_prometheus.hpp>
#include <fleet/fleet_render.hpp>
#include <fleet/slurm.hpp>
#include <sys/atomic_file.hpp>
#include <sys/clock.hpp>
#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

struct FleetOptions {
  std::vector<std::string> args;  // report paths, or with --slurm the check's arguments
  bool slurm = false;
  std::string partition;
  std::string nodes;
  double deadline_s = 120;
  std::string gpudoctor;
  bool json = false;
  bool markdown = false;
  bool html = false;
  std::string prometheus;
};

int run_fleet(const FleetOptions& o) {
  fleet::FleetInput input;
  fleet::FleetMeta meta;
  meta.time = sys::now_utc_iso8601();
  if (o.slurm) {
    fleet::SlurmGatherOptions g;
    g.partition = o.partition;
    g.nodes = o.nodes;
    g.check_args = o.args;
    g.gpudoctor = o.gpudoctor;
    g.deadline = std::chrono::seconds(static_cast<long>(o.deadline_s));
    auto gathered = fleet::gather_with_srun(g);
    if (!gathered) {
      std::cerr << "gpudoctor fleet: " << util::printable(gathered.error().message) << '\n';
      return k_exit_usage;
    }
    input = std::move(gathered->input);
    meta.source = gathered->description;
  } else {
    if (o.args.empty()) {
      std::cerr << "gpudoctor fleet: name report files, a directory of them, or - for standard input; or use --slurm\n";
      return k_exit_usage;
    }
    input = fleet::read_reports(o.args, std::cin);
    meta.source = fmt::format("{} report{}", input.reports.size(), input.reports.size() == 1 ? "" : "s");
    if (input.reports.empty()) {
      for (const auto& p : input.problems) std::cerr << "gpudoctor fleet: " << util::printable(p.reason) << '\n';
      std::cerr << "gpudoctor fleet: no report could be read\n";
      return k_exit_usage;
    }
  }
  fleet::Fleet fleet = fleet::join_fleet(std::move(input));
  if (o.json) {
    std::cout << fleet::fleet_to_json(fleet, meta).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else if (o.markdown) {
    fleet::render_fleet_markdown(fleet, meta, std::cout);
  } else if (o.html) {
    fleet::render_fleet_html(fleet, meta, std::cout);
  } else {
    fleet::render_fleet_text(fleet, meta, std::cout);
  }
  std::cout.flush();
  if (!o.prometheus.empty()) {
    auto written = sys::write_file_atomically(o.prometheus, fleet::fleet_metrics(fleet, sys::now_unix_seconds()));
    if (!written) {
      std::cerr << "gpudoctor fleet: " << util::printable(written.error().message) << '\n';
      return k_exit_usage;
    }
  }
  for (const auto& f : fleet.findings)
    if (f.severity == facts::Severity::error) return k_exit_findings;
  return k_exit_ok;
}

}  // namespace

CommandRunner setup_fleet(CLI::App& sub) {
  auto o = std::make_shared<FleetOptions>();
  sub.add_option("reports", o->args,
                 "`check --json` reports: files, directories of them, or - for standard input (JSON lines, or "
                 "pdsh/clush output). With --slurm: the arguments after -- go to each node's `gpudoctor check`");
  sub.add_flag("--slurm", o->slurm, "Gather the reports with srun: one `gpudoctor check --json` per node, all at once");
  sub.add_option("--partition", o->partition, "With --slurm: only this partition's nodes");
  sub.add_option("--nodes", o->nodes, "With --slurm: only these nodes (a hostlist: gpu[001-064])");
  sub.add_option("--deadline", o->deadline_s, "With --slurm: seconds each node's check may take (default 120)")
      ->check(CLI::Range(1.0, 86400.0));
  sub.add_option("--gpudoctor", o->gpudoctor, "With --slurm: the gpudoctor each node runs (default: this one's path)");
  auto* json = sub.add_flag("--json", o->json, "Print the joined fleet as one JSON object");
  auto* md = sub.add_flag("--markdown", o->markdown, "Print Markdown, for a ticket")->excludes(json);
  sub.add_flag("--html", o->html, "Print one self-contained HTML page")->excludes(json)->excludes(md);
  sub.add_option("--prometheus", o->prometheus,
                 "Also write the joined fleet in Prometheus' text format to FILE (atomically: node_exporter's textfile collector)");
  return [o] { return run_fleet(*o); };
}

}  // namespace gpudoctor::cli
