// The command line as data: the subcommands, options and positionals of the CLI11 app that the one
// subcommand table (cli.cpp) builds, read back for the generated man page and shell completions,
// so a new subcommand or flag appears in all of them with no file kept by hand.
// Hidden subcommands (no summary: the helpers of the driver probe and NVML sampling) are left out.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cli/command.hpp>

namespace CLI {
class App;
}

namespace gpudoctor::cli {

struct OptionRef {
  std::vector<std::string> names;  // "--json", "-j", long names first
  std::string value_name;          // "" for a flag, else CLI11's type name ("TEXT", "FLOAT", "UINT")
  std::vector<std::string> choices;  // the allowed values, when the option has a fixed set
  std::string description;
};

struct PositionalRef {
  std::string name;
  std::string description;
  std::vector<std::string> choices;
  bool required = false;
  bool repeated = false;
};

struct CommandRef {
  std::string name;
  std::string summary;
  std::vector<OptionRef> options;  // without --help, which every command has
  std::vector<PositionalRef> positionals;
};

struct CliRef {
  std::string name;
  std::string description;
  std::vector<OptionRef> options;  // the top-level ones (--version)
  std::vector<CommandRef> commands;
};

// The CLI11 app of the whole subcommand table: what run_cli parses with, and what the man page and
// completions read. `runners` receives each subcommand's runner.
std::unique_ptr<CLI::App> make_app(std::map<const CLI::App*, CommandRunner>& runners);

CliRef describe_cli(const CLI::App& root);

// The man page gpudoctor(1), in roff (man(7) macros).
std::string man_page(const CliRef& cli, const std::string& version);

enum class Shell { bash, zsh, fish };
std::string shell_completion(const CliRef& cli, Shell shell);

}  // namespace gpudoctor::cli
