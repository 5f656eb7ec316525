#include <scan/suppression.hpp>

#include <util/text.hpp>

namespace gpudoctor::scan {

bool is_suppressed(std::string_view line, std::string_view id) {
  constexpr std::string_view k_marker = "gpudoctor:";
  for (std::size_t at = line.find('#'); at != std::string_view::npos; at = line.find('#', at + 1)) {
    std::string_view rest = util::trim(line.substr(at + 1));
    if (rest.substr(0, k_marker.size()) != k_marker) continue;
    rest = util::trim(rest.substr(k_marker.size()));
    if (rest.substr(0, 6) != "ignore") continue;
    rest = rest.substr(6);
    if (rest.empty() || rest.front() != '[') return true;  // a bare ignore covers every rule
    auto close = rest.find(']');
    if (close == std::string_view::npos) return false;
    std::string_view short_id = id.substr(0, 5) == "code." ? id.substr(5) : id;
    for (auto part : util::split(rest.substr(1, close - 1), ',')) {
      part = util::trim(part);
      if (part == id || part == short_id) return true;
    }
  }
  return false;
}

}  // namespace gpudoctor::scan
