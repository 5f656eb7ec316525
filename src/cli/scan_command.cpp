// gpudoctor scan PATH... [--json|--sarif] [--color WHEN] [--config FILE] [--jobs N] [--stats]
// gpudoctor scan --explain ID
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include <cli/command.hpp>
#include <cli/output.hpp>
#include <data/embedded.hpp>
#include <render/json_renderer.hpp>
#include <render/lint_renderer.hpp>
#include <render/sarif_renderer.hpp>
#include <scan/config.hpp>
#include <scan/file_walk.hpp>
#include <scan/rules.hpp>
#include <scan/scanner.hpp>
#include <sys/clock.hpp>
#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

struct ScanOptions {
  std::vector<std::string> paths;
  bool json = false;
  bool sarif = false;
  std::string color = "auto";
  std::string explain;
  std::string config_file;
  unsigned jobs = 0;
  bool stats = false;
  bool include_tests = false;
};

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof(buf) - 1) != 0) return "unknown";
  return buf;
}

int explain_rule(std::string id) {
  if (id.find('.') == std::string::npos) id = "code." + id;
  const scan::ScanRule* r = scan::find_rule(id);
  if (r == nullptr) {
    std::cerr << "gpudoctor scan: no rule named " << id << "; the rules are:\n";
    for (const auto& rule : scan::all_rules()) std::cerr << "  " << rule.info.id << '\n';
    return k_exit_usage;
  }
  // docs/rules/*.md are compiled in next to data/ (see CMakeLists.txt).
  std::string_view doc = data::find("../docs/rules/" + id + ".md");
  if (!doc.empty()) {
    std::cout << doc;
  } else {
    std::cout << fmt::format("# {} ({})\n\n{}.\n\nTriggered by: {}\n\nFix: {}\n", r->info.id,
                             facts::to_string(r->info.severity), r->info.summary, r->info.trigger, r->info.fix);
  }
  return k_exit_ok;
}

int run_scan(const ScanOptions& o) {
  if (!o.explain.empty()) return explain_rule(o.explain);
  if (o.paths.empty()) {
    std::cerr << "gpudoctor scan: name at least one file or directory (or --explain ID)\n";
    return k_exit_usage;
  }
  scan::ScanConfig config;
  std::string config_path = o.config_file;
  if (config_path.empty()) config_path = scan::find_pyproject(o.paths.front()).value_or("");
  if (!config_path.empty()) {
    auto loaded = scan::load_config(config_path);
    if (!loaded) {
      std::cerr << "gpudoctor scan: " << util::printable(loaded.error().message) << '\n';
      return k_exit_usage;
    }
    config = std::move(*loaded);
  }
  if (o.include_tests) config.include_tests = true;
  auto selection = scan::select_files(o.paths, config);
  if (!selection.missing.empty()) {
    for (const auto& m : selection.missing) std::cerr << "gpudoctor scan: " << util::printable(m) << ": no such file or directory\n";
    return k_exit_usage;
  }
  auto start = std::chrono::steady_clock::now();
  auto result = scan::scan_files(selection.files, config, o.jobs);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  render::Report report;
  report.command = "scan";
  report.host = host_name();
  report.time = sys::now_utc_iso8601();
  report.findings = std::move(result.findings);
  report.notes = std::move(selection.notes);
  for (auto& n : result.notes) report.notes.push_back(std::move(n));
  if (!config.origin.empty()) report.notes.push_back("configuration: " + config.origin + " [tool.gpudoctor]");

  std::vector<facts::FindingInfo> infos;
  for (const auto& r : scan::all_rules()) infos.push_back(r.info);
  std::unique_ptr<render::Renderer> renderer;
  if (o.sarif) {
    renderer = std::make_unique<render::SarifRenderer>(infos);
  } else if (o.json) {
    renderer = std::make_unique<render::JsonRenderer>();
  } else {
    renderer = std::make_unique<render::LintRenderer>(color_mode(o.color));
  }
  renderer->render(report, std::cout);
  std::cout.flush();
  if (o.stats) {
    double mb = static_cast<double>(result.bytes) / 1e6;
    std::cerr << fmt::format("scanned {} files, {:.2f} MB in {:.3f} s ({:.1f} MB/s), {} findings\n", result.files, mb,
                             seconds, seconds > 0 ? mb / seconds : 0.0, report.findings.size());
  }
  return exit_status(report);
}

}  // namespace

CommandRunner setup_scan(CLI::App& sub) {
  auto o = std::make_shared<ScanOptions>();
  sub.add_option("paths", o->paths, "Python files, notebooks (.ipynb) and directories to scan");
  auto* json = sub.add_flag("--json", o->json, "Print one JSON object with a findings array");
  sub.add_flag("--sarif", o->sarif, "Print SARIF 2.1.0, for code-scanning upload")->excludes(json);
  sub.add_option("--explain", o->explain, "Print the documentation of rule ID (with a bad and a good example)");
  sub.add_option("--color", o->color, "Colour: auto, always, never")->check(CLI::IsMember({"auto", "always", "never"}));
  sub.add_option("--config", o->config_file, "pyproject.toml to read [tool.gpudoctor] from (default: the nearest one)");
  sub.add_option("--jobs,-j", o->jobs, "Threads (default: one per hardware thread)")->check(CLI::Range(1u, 1024u));
  sub.add_flag("--stats", o->stats, "Print files, bytes and throughput to standard error");
  sub.add_flag("--include-tests", o->include_tests,
               "Scan test files found in directories too (tests/, test/, test_*.py, *_test.py, conftest.py); named "
               "files are always scanned");
  return [o] { return run_scan(*o); };
}

}  // namespace gpudoctor::cli
