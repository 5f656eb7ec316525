// Text for people: one block per finding, root cause first, grouped by layer; each with its
// evidence and the fix. Colour and Unicode marks only when asked (a terminal without NO_COLOR);
// plain ASCII otherwise.
#pragma once

#include <render/report.hpp>

namespace gpudoctor::render {

class TextRenderer final : public Renderer {
 public:
  explicit TextRenderer(ColorMode color) : m_color(color) {}
  void render(const Report& report, std::ostream& out) const override;

 private:
  ColorMode m_color;
};

}  // namespace gpudoctor::render
