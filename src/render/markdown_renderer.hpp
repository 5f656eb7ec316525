// Markdown for bug reports: a table of findings, then each finding with its evidence and fix.
#pragma once

#include <render/report.hpp>

namespace gpudoctor::render {

class MarkdownRenderer final : public Renderer {
 public:
  void render(const Report& report, std::ostream& out) const override;
};

}  // namespace gpudoctor::render
