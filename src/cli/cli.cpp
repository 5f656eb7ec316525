#include <cli/command.hpp>
#include <cli/reference.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <memory>

namespace gpudoctor::cli {
namespace {

const Command k_commands[] = {
    {"check", "Diagnose this machine (or a captured one): every layer, root cause first", setup_check},
    {"facts", "Print the facts the probes gathered, as JSON", setup_facts},
    {"capture", "Write the files the probes read into a .tar.gz that `check --root` replays", setup_capture},
    {"docs", "Print generated documentation: the finding catalogue, the man page, shell completions", setup_docs},
    {"explain", "Explain a log or traceback: what each known GPU error means and the fix, root cause first", setup_explain},
    {"scan", "Statically check Python files and notebooks for device-placement and GPU-starvation mistakes", setup_scan},
    {"run", "Run a command as if gpudoctor were not there, then say whether (and how well) it used the GPU", setup_run},
    {"watch", "Watch a running process tree (--pid) until it exits, then say whether it used the GPU", setup_watch},
    {"libs", "Show which file each needed library of FILE resolves to, as ld.so would (never runs FILE)", setup_libs},
    {"fleet", "Join many nodes' `check --json` reports (or gather them with srun): which nodes fail, which differ, and why", setup_fleet},
    {"kernels", "List the GPU architectures (cubin, PTX) compiled into FILE; with --cc, can that GPU run them", setup_kernels},
    // Hidden (no summary): the child processes of the driver probe and of run/watch's NVML sampling.
    {"__probe-driver", "", setup_probe_driver},
    {"__sample-nvml", "", setup_sample_nvml},
};

}  // namespace

std::span<const Command> commands() { return k_commands; }

std::unique_ptr<CLI::App> make_app(std::map<const CLI::App*, CommandRunner>& runners) {
  auto app = std::make_unique<CLI::App>("gpudoctor: why is my model not using the GPU?", "gpudoctor");
  app->set_version_flag("--version", std::string("gpudoctor ") + GPUDOCTOR_VERSION);
  app->require_subcommand(1);
  for (const auto& c : commands()) {
    CLI::App* sub = app->add_subcommand(std::string(c.name), std::string(c.summary));
    if (c.summary.empty()) sub->group("");
    runners[sub] = c.setup(*sub);
  }
  return app;
}

int run_cli(int argc, char** argv) {
  std::map<const CLI::App*, CommandRunner> runners;
  std::unique_ptr<CLI::App> app_ptr = make_app(runners);
  CLI::App& app = *app_ptr;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? k_exit_ok : k_exit_usage;
  }
  for (const auto& [sub, run] : runners) {
    if (sub->parsed()) return run();
  }
  return k_exit_usage;
}

}  // namespace gpudoctor::cli
