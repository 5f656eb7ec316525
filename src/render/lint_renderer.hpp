// Text for findings that point into source files (`gpudoctor scan`), the way compilers and linters
// print them so editors and terminals can jump to them:
//   train.py:41:5: code.inputs_not_moved message
//       fix: ...
//   nb.ipynb:cell 4:line 2:1: code.hardcoded_cpu message
// One block per file, files in the order given, a summary line at the end. Colour (severity on the
// id, dim fix) only with ColorMode::always.
#pragma once

#include <render/report.hpp>

namespace gpudoctor::render {

class LintRenderer final : public Renderer {
 public:
  explicit LintRenderer(ColorMode color) : m_color(color) {}
  void render(const Report& report, std::ostream& out) const override;

 private:
  ColorMode m_color;
};

// "train.py:41:5" or "nb.ipynb:cell 4:line 2:5".
std::string location_label(const facts::SourceLocation& loc);

}  // namespace gpudoctor::render
