#include <render/text_renderer.hpp>

#include <fmt/format.h>

#include <util/text.hpp>

namespace gpudoctor::render {
namespace {

struct Style {
  const char* mark;
  const char* color;
};

Style style_of(facts::Severity s, ColorMode mode) {
  bool fancy = mode == ColorMode::always;
  switch (s) {
    case facts::Severity::error: return {fancy ? "\u2716" : "[error]", "\033[1;31m"};
    case facts::Severity::warning: return {fancy ? "\u26a0" : "[warn] ", "\033[1;33m"};
    case facts::Severity::info: return {fancy ? "\u2139" : "[info] ", "\033[1;36m"};
  }
  return {"", ""};
}

// Wraps `text` at `width` columns, every line after the first indented by `indent` spaces.
std::string wrap(std::string_view text, std::size_t indent, std::size_t width) {
  std::string out;
  std::size_t col = indent;
  bool first = true;
  for (auto word : util::split_ws(text)) {
    if (!first && col + 1 + word.size() > width) {
      out += '\n';
      out.append(indent, ' ');
      col = indent;
    } else if (!first) {
      out += ' ';
      ++col;
    }
    out += word;
    col += word.size();
    first = false;
  }
  return out;
}

}  // namespace

void TextRenderer::render(const Report& report, std::ostream& out) const {
  const bool color = m_color == ColorMode::always;
  const char* reset = color ? "\033[0m" : "";
  const char* dim = color ? "\033[2m" : "";
  constexpr std::size_t k_indent = 15;
  constexpr std::size_t k_width = 100;
  int errors = 0, warnings = 0;
  for (const auto& f : report.findings) {
    Style st = style_of(f.severity, m_color);
    errors += f.severity == facts::Severity::error;
    warnings += f.severity == facts::Severity::warning;
    // Every field may quote data gpudoctor did not write (file names, log lines, ELF strings).
    auto safe = [](std::string_view t) { return util::printable(t, util::LineBreaks::keep); };
    std::string head = f.location ? fmt::format("{}:{}:{}: ", util::printable(f.location->file), f.location->line,
                                                f.location->column)
                                  : std::string();
    out << (color ? st.color : "") << st.mark << ' ' << fmt::format("{:<12}", facts::to_string(f.layer)) << reset
        << ' ' << head << (color ? "\033[1m" : "") << util::printable(f.id) << reset << '\n';
    std::string pad(k_indent, ' ');
    out << pad << wrap(safe(f.message), k_indent, k_width) << '\n';
    for (const auto& e : f.evidence) out << pad << dim << "evidence: " << reset << wrap(safe(e), k_indent + 10, k_width) << '\n';
    if (!f.explained_by.empty()) {
      out << pad << dim << "follows from: " << reset << util::printable(util::join(f.explained_by, ", ")) << '\n';
    }
    if (!f.fix.empty()) out << pad << (color ? "\033[32m" : "") << "fix: " << reset << wrap(safe(f.fix), k_indent + 5, k_width) << '\n';
    out << '\n';
  }
  for (const auto& n : report.notes) out << dim << "note: " << reset << util::printable(n, util::LineBreaks::keep) << '\n';
  if (report.findings.empty() && report.outcome == Report::Outcome::unrecognised) {
    out << "Nothing recognised: no finding, and no verdict on the machine either (see the note above).\n";
  } else if (report.findings.empty()) {
    out << "No findings: every check that could decide found nothing wrong.\n";
  } else {
    out << fmt::format("{} error(s), {} warning(s), {} finding(s) in all. Details: docs/checks.md\n", errors, warnings,
                       report.findings.size());
  }
}

}  // namespace gpudoctor::render
