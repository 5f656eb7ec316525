// gpudoctor facts --json [--root DIR|FILE.tar.gz]
#include <CLI/CLI.hpp>

#include <iostream>

#include <cli/command.hpp>
#include <cli/gather.hpp>
#include <cli/machine.hpp>
#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

struct FactsOptions {
  std::string root = "/";
  bool json = true;
};

int run_facts(const FactsOptions& o) {
  auto machine = Machine::open(o.root);
  if (!machine) {
    std::cerr << "gpudoctor facts: " << util::printable(machine.error().message) << '\n';
    return k_exit_usage;
  }
  facts::Facts f = gather_facts(machine->fs(), GatherOptions{});
  f.meta.root = machine->display_root();
  std::cout << nlohmann::json(f).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  return k_exit_ok;
}

}  // namespace

CommandRunner setup_facts(CLI::App& sub) {
  auto o = std::make_shared<FactsOptions>();
  sub.add_option("--root", o->root, "Read a captured machine instead of this one");
  sub.add_flag("--json", o->json, "JSON output (the only format; accepted for clarity)");
  return [o] { return run_facts(*o); };
}

}  // namespace gpudoctor::cli
