// gpudoctor docs checks|man|completions SHELL: documentation generated from what the binary itself
// holds: the finding catalogue (docs/checks.md) from the registries, and the man page and shell
// completions from the CLI11 app that the subcommand table built (cli/reference.hpp).
#include <CLI/CLI.hpp>

#include <iostream>

#include <cli/catalog.hpp>
#include <cli/command.hpp>
#include <cli/reference.hpp>

namespace gpudoctor::cli {

CommandRunner setup_docs(CLI::App& sub) {
  auto what = std::make_shared<std::string>();
  auto shell = std::make_shared<std::string>();
  sub.add_option("what", *what,
                 "checks: the finding catalogue (docs/checks.md); man: the man page gpudoctor(1); completions: "
                 "the completion script for SHELL")
      ->required()
      ->check(CLI::IsMember({"checks", "man", "completions"}));
  sub.add_option("shell", *shell, "bash, zsh or fish (with completions)")->check(CLI::IsMember({"bash", "zsh", "fish"}));
  return [what, shell, &sub] {
    if (*what == "checks") {
      std::cout << checks_markdown();
      return k_exit_ok;
    }
    const CLI::App& root = *sub.get_parent();
    if (*what == "man") {
      std::cout << man_page(describe_cli(root), GPUDOCTOR_VERSION);
      return k_exit_ok;
    }
    if (shell->empty()) {
      std::cerr << "gpudoctor docs completions: name the shell: bash, zsh or fish\n";
      return k_exit_usage;
    }
    Shell s = *shell == "bash" ? Shell::bash : *shell == "zsh" ? Shell::zsh : Shell::fish;
    std::cout << shell_completion(describe_cli(root), s);
    return k_exit_ok;
  };
}

}  // namespace gpudoctor::cli
