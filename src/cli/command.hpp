// The subcommands, in one table that drives both dispatch and `--help` (ninja's kTools[]). Each
// command's file defines its setup function: it adds the command's options to its CLI11 subcommand
// and returns the function that runs it (returning the exit status).
#pragma once

#include <functional>
#include <span>
#include <string_view>

namespace CLI {
class App;
}

namespace gpudoctor::cli {

// Exit statuses (DESIGN.md "Contracts"): 0 no error finding, 1 at least one, 2 usage or internal.
inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_findings = 1;
inline constexpr int k_exit_usage = 2;
// explain: nothing in the text was recognised (no known message, no tool output it reads).
inline constexpr int k_exit_unrecognised = 3;

using CommandRunner = std::function<int()>;
using CommandSetup = CommandRunner (*)(CLI::App& sub);

struct Command {
  std::string_view name;
  std::string_view summary;
  CommandSetup setup;
};

std::span<const Command> commands();

int run_cli(int argc, char** argv);

// Every subcommand's setup function, defined in its own file.
CommandRunner setup_check(CLI::App& sub);
CommandRunner setup_facts(CLI::App& sub);
CommandRunner setup_capture(CLI::App& sub);
CommandRunner setup_docs(CLI::App& sub);
CommandRunner setup_explain(CLI::App& sub);
CommandRunner setup_scan(CLI::App& sub);
CommandRunner setup_run(CLI::App& sub);
CommandRunner setup_watch(CLI::App& sub);
CommandRunner setup_libs(CLI::App& sub);
CommandRunner setup_kernels(CLI::App& sub);
CommandRunner setup_fleet(CLI::App& sub);
CommandRunner setup_probe_driver(CLI::App& sub);
CommandRunner setup_sample_nvml(CLI::App& sub);

}  // namespace gpudoctor::cli
