// gpudoctor check [--root DIR|FILE.tar.gz] [--facts FILE] [--json|--markdown] [--color WHEN] [--python PATH]... [--deep]
#include <CLI/CLI.hpp>

#include <iostream>

#include <checks/check.hpp>
#include <cli/command.hpp>
#include <cli/gather.hpp>
#include <cli/machine.hpp>
#include <cli/output.hpp>
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
};

int run_check(const CheckOptions& o) {
  facts::Facts f;
  if (!o.facts_file.empty()) {
    auto loaded = load_facts_file(o.facts_file);
    if (!loaded) {
      std::cerr << "gpudoctor check: " << util::printable(loaded.error().message) << '\n';
      return k_exit_usage;
    }
    f = std::move(loaded.value());
  } else {
    auto machine = Machine::open(o.root);
    if (!machine) {
      std::cerr << "gpudoctor check: " << util::printable(machine.error().message) << '\n';
      return k_exit_usage;
    }
    GatherOptions g;
    g.timeout_ms = static_cast<int>(o.timeout_s * 1000);
    g.python = o.python;
    g.deep = o.deep ? probe::DeepImport::on : probe::DeepImport::off;
    f = gather_facts(machine->fs(), g);
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
  return [o] { return run_check(*o); };
}

}  // namespace gpudoctor::cli
