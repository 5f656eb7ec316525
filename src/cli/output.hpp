// Output choices shared by the commands that print findings.
#pragma once

#include <memory>
#include <string>

#include <render/report.hpp>

namespace gpudoctor::cli {

enum class Format { text, json, markdown };

// "auto" -> colour when stdout is a terminal and NO_COLOR is unset (https://no-color.org).
render::ColorMode color_mode(const std::string& choice);
std::unique_ptr<render::Renderer> make_renderer(Format format, render::ColorMode color);

int exit_status(const render::Report& report);

}  // namespace gpudoctor::cli
