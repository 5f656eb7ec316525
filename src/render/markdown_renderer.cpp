#include <render/markdown_renderer.hpp>

#include <fmt/format.h>

#include <util/text.hpp>

namespace gpudoctor::render {
namespace {

std::string safe(std::string_view s) { return util::printable(s, util::LineBreaks::keep); }

std::string escape_cell(std::string_view s) {
  std::string out;
  for (char c : safe(s)) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

void MarkdownRenderer::render(const Report& report, std::ostream& out) const {
  out << fmt::format("## gpudoctor {} on `{}`\n\n", report.command, util::printable(report.host));
  out << fmt::format("gpudoctor {}, {}\n\n", GPUDOCTOR_VERSION, report.time);
  if (report.findings.empty()) {
    out << (report.outcome == Report::Outcome::unrecognised ? "Nothing recognised: no finding, and no verdict on the machine.\n"
                                                            : "No findings.\n");
    for (const auto& n : report.notes) out << "\n> " << safe(n) << '\n';
    return;
  }
  out << "| severity | layer | id | message |\n|---|---|---|---|\n";
  for (const auto& f : report.findings) {
    out << fmt::format("| {} | {} | `{}` | {} |\n", facts::to_string(f.severity), facts::to_string(f.layer), util::printable(f.id),
                       escape_cell(f.message));
  }
  out << '\n';
  for (const auto& f : report.findings) {
    out << fmt::format("### `{}`\n\n{}\n\n", util::printable(f.id), safe(f.message));
    for (const auto& e : f.evidence) out << "- " << safe(e) << '\n';
    if (!f.fix.empty()) out << "\n**Fix:** " << safe(f.fix) << '\n';
    out << '\n';
  }
}

}  // namespace gpudoctor::render
