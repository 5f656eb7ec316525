// gpudoctor(1) from the command-line model. The sections that are not in the CLI11 app (exit
// status, environment, files) restate DESIGN.md's contracts and the README.
#include <cli/reference.hpp>

#include <fmt/format.h>

namespace gpudoctor::cli {
namespace {

// roff: a backslash is "\e", a minus sign "\-" (a plain "-" may print as a hyphen), and a line
// must not start with a control character ("." or "'").
std::string roff(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string option_synopsis(const OptionRef& o) {
  std::string names;
  for (const auto& n : o.names) names += fmt::format("{}\\fB{}\\fR", names.empty() ? "" : ", ", roff(n));
  if (o.value_name.empty()) return names;
  if (!o.choices.empty()) {
    std::string alts;
    for (const auto& c : o.choices) alts += fmt::format("{}{}", alts.empty() ? "" : "|", roff(c));
    return fmt::format("{} {}", names, alts);
  }
  return names + fmt::format(" \\fI{}\\fR", roff(o.value_name));
}

std::string command_synopsis(const std::string& program, const CommandRef& c) {
  std::string s = fmt::format("\\fB{}\\fR \\fB{}\\fR", roff(program), roff(c.name));
  if (!c.options.empty()) s += " [\\fIOPTIONS\\fR]";
  for (const auto& p : c.positionals) {
    std::string name = fmt::format("\\fI{}\\fR{}", roff(p.name), p.repeated ? "..." : "");
    s += p.required ? fmt::format(" {}", name) : fmt::format(" [{}]", name);
  }
  return s;
}

}  // namespace

std::string man_page(const CliRef& cli, const std::string& version) {
  std::string out;
  out += fmt::format(".TH {} 1 \"\" \"{} {}\" \"User Commands\"\n", "GPUDOCTOR", roff(cli.name), roff(version));
  out += fmt::format(".SH NAME\n{} \\- why is my model not using the GPU?\n", roff(cli.name));
  out += ".SH SYNOPSIS\n";
  for (const auto& c : cli.commands) out += fmt::format("{}\n.br\n", command_synopsis(cli.name, c));
  out += ".SH DESCRIPTION\n";
  out += roff(cli.name);
  out += " looks at every layer a GPU run depends on (the hardware and operating system, the driver, the "
         "CUDA toolkit and framework builds, the Python code, and the run itself), joins what it sees, and "
         "says the likely root cause first, with the evidence and the fix.\n";
  out += ".SH OPTIONS\n";
  for (const auto& o : cli.options) out += fmt::format(".TP\n{}\n{}\n", option_synopsis(o), roff(o.description));
  out += fmt::format(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nPrint the help of {} or of a command.\n", roff(cli.name));
  out += ".SH COMMANDS\n";
  for (const auto& c : cli.commands) {
    out += fmt::format(".SS {}\n{}\n.PP\n{}.\n", roff(c.name), command_synopsis(cli.name, c), roff(c.summary));
    for (const auto& p : c.positionals) out += fmt::format(".TP\n\\fI{}\\fR\n{}\n", roff(p.name), roff(p.description));
    for (const auto& o : c.options) out += fmt::format(".TP\n{}\n{}\n", option_synopsis(o), roff(o.description));
  }
  out += ".SH EXIT STATUS\n"
         ".TP\n0\nNo finding is an error.\n"
         ".TP\n1\nAt least one finding is an error.\n"
         ".TP\n2\nA usage or internal error.\n"
         ".TP\n3\n\\fBexplain\\fR recognised nothing in the text.\n"
         ".PP\n\\fBrun\\fR exits with the status of the command it ran.\n";
  out += ".SH ENVIRONMENT\n"
         ".TP\n\\fBGPUDOCTOR_NVML_LIBRARY\\fR, \\fBGPUDOCTOR_CUDA_LIBRARY\\fR, \\fBGPUDOCTOR_CUDART_LIBRARY\\fR\n"
         "The driver libraries to ask (unusual installs, test doubles); \\fBnone\\fR skips one. They are always "
         "loaded in a child process with a deadline.\n"
         ".TP\n\\fBNO_COLOR\\fR\nNever colour the output.\n";
  out += ".SH SEE ALSO\n\\fBnvidia\\-smi\\fR(1), \\fBlspci\\fR(8), \\fBldd\\fR(1)\n";
  return out;
}

}  // namespace gpudoctor::cli
