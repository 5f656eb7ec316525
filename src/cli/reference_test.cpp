#include <cli/reference.hpp>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

namespace gpudoctor::cli {
namespace {

CliRef real_cli() {
  std::map<const CLI::App*, CommandRunner> runners;
  auto app = make_app(runners);
  return describe_cli(*app);
}

const CommandRef* find_command(const CliRef& cli, std::string_view name) {
  for (const auto& c : cli.commands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(Reference, EveryVisibleCommandOfTheTableAndNoHiddenOne) {
  CliRef cli = real_cli();
  for (const auto& c : commands()) {
    EXPECT_EQ(find_command(cli, c.name) != nullptr, !c.summary.empty()) << c.name;
  }
  const CommandRef* scan = find_command(cli, "scan");
  ASSERT_NE(scan, nullptr);
  bool sarif = false;
  for (const auto& o : scan->options) sarif |= o.names == std::vector<std::string>{"--sarif"} && o.value_name.empty();
  EXPECT_TRUE(sarif);
  const CommandRef* check = find_command(cli, "check");
  ASSERT_NE(check, nullptr);
  for (const auto& o : check->options) {
    if (o.names[0] == "--color") {
      EXPECT_EQ(o.choices, (std::vector<std::string>{"auto", "always", "never"}));
    }
    EXPECT_NE(o.names[0], "--help");
  }
}

TEST(Reference, ManPageAndCompletionsNameEveryCommandAndOption) {
  CliRef cli = real_cli();
  std::string man = man_page(cli, "1.2.3");
  std::string bash = shell_completion(cli, Shell::bash);
  std::string zsh = shell_completion(cli, Shell::zsh);
  std::string fish = shell_completion(cli, Shell::fish);
  EXPECT_EQ(man.rfind(".TH GPUDOCTOR 1 \"\" \"gpudoctor 1.2.3\"", 0), 0u);
  EXPECT_NE(bash.find("complete -o filenames -F _gpudoctor gpudoctor"), std::string::npos);
  EXPECT_EQ(zsh.rfind("#compdef gpudoctor\n", 0), 0u);
  for (const auto& c : cli.commands) {
    EXPECT_NE(man.find(".SS " + c.name + "\n"), std::string::npos) << c.name;
    EXPECT_NE(bash.find("    " + c.name + ")\n"), std::string::npos) << c.name;
    EXPECT_NE(zsh.find("'" + c.name + ":"), std::string::npos) << c.name;
    EXPECT_NE(fish.find("-a " + c.name + " -d"), std::string::npos) << c.name;
    for (const auto& o : c.options) {
      std::string roff_name;
      for (char ch : o.names[0]) roff_name += ch == '-' ? std::string("\\-") : std::string(1, ch);
      EXPECT_NE(man.find("\\fB" + roff_name + "\\fR"), std::string::npos) << c.name << " " << o.names[0];
      EXPECT_NE(bash.find(o.names[0]), std::string::npos) << c.name << " " << o.names[0];
      std::string zsh_names = o.names.size() == 1 ? o.names[0] + "[" : "{" + o.names[0] + "," + o.names[1] + "}";
      EXPECT_NE(zsh.find(zsh_names), std::string::npos) << c.name << " " << o.names[0];
    }
  }
  EXPECT_EQ(man.find("__probe"), std::string::npos);
  EXPECT_EQ(bash.find("__sample"), std::string::npos);
}

TEST(Reference, QuotesSurviveInEveryShell) {
  CliRef cli{"tool", "d", {}, {{"go", "It's [a] test: yes", {{{"--mode", "-m"}, "TEXT", {"a", "b"}, "Pick 'one'"}}, {}}}};
  std::string bash = shell_completion(cli, Shell::bash);
  std::string zsh = shell_completion(cli, Shell::zsh);
  std::string fish = shell_completion(cli, Shell::fish);
  EXPECT_NE(bash.find("--mode|-m) COMPREPLY=($(compgen -W 'a b' -- \"$cur\")); return ;;"), std::string::npos);
  EXPECT_NE(zsh.find("'go:It'\\''s (a) test\\: yes'"), std::string::npos);
  EXPECT_NE(fish.find("-l mode -s m -x -a 'a b' -d 'Pick \\'one\\''"), std::string::npos);
  EXPECT_NE(man_page(cli, "1").find(".SS go\n"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::cli
