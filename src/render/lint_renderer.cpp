#include <render/lint_renderer.hpp>

#include <fmt/format.h>

#include <util/text.hpp>

namespace gpudoctor::render {

std::string location_label(const facts::SourceLocation& loc) {
  // A file name is data: a hostile one may hold terminal escapes.
  auto file = util::printable(loc.file);
  if (!loc.cell.empty()) return fmt::format("{}:{}:line {}:{}", file, util::printable(loc.cell), loc.line, loc.column);
  return fmt::format("{}:{}:{}", file, loc.line, loc.column);
}

void LintRenderer::render(const Report& report, std::ostream& out) const {
  const bool color = m_color == ColorMode::always;
  auto paint = [color](const char* code, const std::string& s) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  };
  int errors = 0, warnings = 0, infos = 0;
  std::string current_file;
  std::size_t files = 0;
  for (const auto& f : report.findings) {
    std::string file = f.location ? f.location->file : std::string();
    if (file != current_file || files == 0) {
      if (files > 0) out << '\n';
      current_file = file;
      ++files;
    }
    const char* sev_color = f.severity == facts::Severity::error     ? "1;31"
                            : f.severity == facts::Severity::warning ? "1;33"
                                                                     : "1;36";
    (f.severity == facts::Severity::error ? errors : f.severity == facts::Severity::warning ? warnings : infos)++;
    std::string where = f.location ? location_label(*f.location) + ": " : std::string();
    out << paint("1", where) << paint(sev_color, util::printable(f.id)) << ' '
        << util::printable(f.message, util::LineBreaks::keep) << '\n';
    if (!f.fix.empty()) out << "    " << paint("32", "fix:") << ' ' << util::printable(f.fix, util::LineBreaks::keep) << '\n';
  }
  if (!report.findings.empty()) out << '\n';
  for (const auto& n : report.notes) out << paint("2", "note: " + util::printable(n, util::LineBreaks::keep)) << '\n';
  if (report.findings.empty()) {
    out << "No findings.\n";
  } else {
    out << fmt::format("{} error(s), {} warning(s), {} info in {} file(s). Rule docs: gpudoctor scan --explain ID\n",
                       errors, warnings, infos, files);
  }
}

}  // namespace gpudoctor::render
