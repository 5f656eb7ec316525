#include <render/markdown_renderer.hpp>

#include <fmt/format.h>

namespace gpudoctor::render {
namespace {

std::string escape_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

void MarkdownRenderer::render(const Report& report, std::ostream& out) const {
  out << fmt::format("## gpudoctor {} on `{}`\n\n", report.command, report.host);
  out << fmt::format("gpudoctor {}, {}\n\n", GPUDOCTOR_VERSION, report.time);
  if (report.findings.empty()) {
    out << "No findings.\n";
    return;
  }
  out << "| severity | layer | id | message |\n|---|---|---|---|\n";
  for (const auto& f : report.findings) {
    out << fmt::format("| {} | {} | `{}` | {} |\n", facts::to_string(f.severity), facts::to_string(f.layer), f.id,
                       escape_cell(f.message));
  }
  out << '\n';
  for (const auto& f : report.findings) {
    out << fmt::format("### `{}`\n\n{}\n\n", f.id, f.message);
    for (const auto& e : f.evidence) out << "- " << e << '\n';
    if (!f.fix.empty()) out << "\n**Fix:** " << f.fix << '\n';
    out << '\n';
  }
}

}  // namespace gpudoctor::render
