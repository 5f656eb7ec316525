#include <cli/reference.hpp>

#include <CLI/CLI.hpp>

namespace gpudoctor::cli {
namespace {

// CLI11 writes a fixed set of values into the type name: "TEXT:{auto,always,never}".
std::vector<std::string> choices_of(const std::string& type_name) {
  std::vector<std::string> out;
  auto open = type_name.find(":{");
  auto close = type_name.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string list = type_name.substr(open + 2, close - open - 2);
  std::size_t pos = 0;
  while (pos <= list.size()) {
    auto comma = list.find(',', pos);
    if (comma == std::string::npos) comma = list.size();
    if (comma > pos) out.push_back(list.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

std::string value_name_of(const std::string& type_name) { return type_name.substr(0, type_name.find(':')); }

OptionRef option_ref(const CLI::Option& opt) {
  OptionRef o;
  for (const auto& l : opt.get_lnames()) o.names.push_back("--" + l);
  for (const auto& s : opt.get_snames()) o.names.push_back("-" + s);
  if (opt.get_items_expected_max() > 0) {
    o.value_name = value_name_of(opt.get_type_name());
    if (o.value_name.empty()) o.value_name = "VALUE";
    o.choices = choices_of(opt.get_type_name());
  }
  o.description = opt.get_description();
  return o;
}

void read_options(const CLI::App& app, std::vector<OptionRef>& options, std::vector<PositionalRef>* positionals) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt == app.get_help_ptr()) continue;
    if (opt->nonpositional()) {
      options.push_back(option_ref(*opt));
    } else if (positionals != nullptr) {
      positionals->push_back({opt->get_name(true), opt->get_description(), choices_of(opt->get_type_name()),
                              opt->get_required(), opt->get_items_expected_max() > 1});
    }
  }
}

}  // namespace

CliRef describe_cli(const CLI::App& root) {
  CliRef cli;
  cli.name = root.get_name();
  cli.description = root.get_description();
  read_options(root, cli.options, nullptr);
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden
    CommandRef c{sub->get_name(), sub->get_description(), {}, {}};
    read_options(*sub, c.options, &c.positionals);
    cli.commands.push_back(std::move(c));
  }
  return cli;
}

}  // namespace gpudoctor::cli
