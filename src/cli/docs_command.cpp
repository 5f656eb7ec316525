// gpudoctor docs checks: prints docs/checks.md as the registries generate it.
#include <CLI/CLI.hpp>

#include <iostream>

#include <cli/catalog.hpp>
#include <cli/command.hpp>

namespace gpudoctor::cli {

CommandRunner setup_docs(CLI::App& sub) {
  auto what = std::make_shared<std::string>();
  sub.add_option("what", *what, "checks: the finding catalogue (docs/checks.md)")
      ->required()
      ->check(CLI::IsMember({"checks"}));
  return [what] {
    std::cout << checks_markdown();
    return k_exit_ok;
  };
}

}  // namespace gpudoctor::cli
