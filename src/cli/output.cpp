#include <cli/output.hpp>

#include <unistd.h>

#include <cstdlib>

#include <cli/command.hpp>
#include <render/json_renderer.hpp>
#include <render/markdown_renderer.hpp>
#include <render/text_renderer.hpp>

namespace gpudoctor::cli {

render::ColorMode color_mode(const std::string& choice) {
  if (choice == "always") return render::ColorMode::always;
  if (choice == "never") return render::ColorMode::never;
  const char* no_color = std::getenv("NO_COLOR");
  bool tty = ::isatty(STDOUT_FILENO) == 1;
  return tty && (no_color == nullptr || *no_color == '\0') ? render::ColorMode::always : render::ColorMode::never;
}

std::unique_ptr<render::Renderer> make_renderer(Format format, render::ColorMode color) {
  switch (format) {
    case Format::json: return std::make_unique<render::JsonRenderer>();
    case Format::markdown: return std::make_unique<render::MarkdownRenderer>();
    case Format::text: break;
  }
  return std::make_unique<render::TextRenderer>(color);
}

int exit_status(const render::Report& report) {
  for (const auto& f : report.findings) {
    if (f.severity == facts::Severity::error) return k_exit_findings;
  }
  return k_exit_ok;
}

}  // namespace gpudoctor::cli
