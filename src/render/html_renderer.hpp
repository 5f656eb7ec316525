// One self-contained HTML page for a run report (`gpudoctor run --html FILE`): the verdict, the
// findings, and the sampled timeline drawn as inline SVG — GPU busy and GPU memory per GPU, CPU per
// process, and the events (matched error messages, the exit) as markers across every panel. No
// script, no stylesheet or font from anywhere: the page reads the same offline, attached to a
// bug report, years later.
//
// The timeline is read from Report::facts in the JSON form of watch::Timeline (render depends on
// facts only). Figures that were not reported are drawn as absent and said so, never as zero.
#pragma once

#include <render/report.hpp>

namespace gpudoctor::render {

class HtmlRenderer final : public Renderer {
 public:
  void render(const Report& report, std::ostream& out) const override;
};

// Escapes &, <, >, " and ' for HTML text and attribute values.
std::string html_escape(std::string_view text);

}  // namespace gpudoctor::render
