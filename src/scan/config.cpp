#include <scan/config.hpp>

#include <fnmatch.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include <scan/rules.hpp>
#include <util/text.hpp>

namespace gpudoctor::scan {
namespace {

constexpr std::uint64_t k_max_config_bytes = 1u << 20;

sys::Error invalid(const std::string& origin, const std::string& what) {
  return sys::Error{sys::ErrorCode::invalid, origin + ": [tool.gpudoctor] " + what};
}

sys::Expected<std::vector<std::string>> string_list(const toml::node& node, const std::string& origin,
                                                    std::string_view key) {
  const auto* arr = node.as_array();
  if (arr == nullptr) return invalid(origin, std::string(key) + " must be an array of strings");
  std::vector<std::string> out;
  for (const auto& item : *arr) {
    auto s = item.value<std::string>();
    if (!s) return invalid(origin, std::string(key) + " must be an array of strings");
    out.push_back(*s);
  }
  return out;
}

std::optional<std::string> check_ids(const std::vector<std::string>& ids) {
  for (const auto& id : ids) {
    if (find_rule(id) == nullptr) return id;
  }
  return std::nullopt;
}

}  // namespace

bool ScanConfig::enabled(std::string_view id) const {
  std::string key(id);
  if (ignored.count(key)) return false;
  return !selected || selected->count(key) > 0;
}

bool ScanConfig::excluded(std::string_view relative_path) const {
  std::string path(relative_path);
  std::string base = std::filesystem::path(path).filename().string();
  for (const auto& pattern : exclude) {
    if (::fnmatch(pattern.c_str(), path.c_str(), 0) == 0 || ::fnmatch(pattern.c_str(), base.c_str(), 0) == 0) return true;
    // "build" excludes everything under build/.
    if (path.compare(0, pattern.size() + 1, pattern + "/") == 0) return true;
  }
  return false;
}

namespace {

// toml++ 3.3 reads a table header's key without checking its first character (`[&`): a failed
// assertion in a debug build, an "assume" the optimiser may exploit in a release build (found by
// tests/fuzz scan_fuzzer). Such a header is refused here first, with toml++'s own words.
std::optional<std::string> bad_table_header(std::string_view text) {
  std::size_t line = 0;
  for (std::string_view l : util::lines(text)) {
    ++line;
    std::size_t i = l.find_first_not_of(" \t");
    if (i == std::string_view::npos || l[i] != '[') continue;
    ++i;
    if (i < l.size() && l[i] == '[') ++i;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    if (i >= l.size()) continue;  // toml++ reports the end of the line itself
    auto c = static_cast<unsigned char>(l[i]);
    bool key_start = std::isalnum(c) != 0 || c == '_' || c == '-' || c == '"' || c == '\'' || c == ']' || c >= 0x80;
    if (!key_start) {
      return fmt::format("{}: Error while parsing key: expected bare key starting character or string delimiter, saw "
                         "'{}'",
                         line, util::sanitize_utf8(l.substr(i, 1)));
    }
  }
  return std::nullopt;
}

// toml++ 3.3 also assumes that a non-ASCII character outside a string or a comment is one of the
// Unicode spaces it knows: U+026C there (bytes C9 AC) reaches a TOML_UNREACHABLE in its generated
// whitespace table, undefined behaviour in a release build (found by tests/fuzz scan_fuzzer). TOML
// 1.0 allows no such character there (bare keys and values are ASCII), so it is refused here, with
// its line, before toml++ reads the text.
std::optional<std::string> non_ascii_outside_strings(std::string_view text) {
  std::size_t line = 1;
  std::size_t i = 0;
  auto starts = [&](std::string_view what) { return text.substr(i, what.size()) == what; };
  auto skip_until = [&](std::string_view close, bool escapes) {
    while (i < text.size()) {
      if (escapes && text[i] == '\\' && i + 1 < text.size()) {
        if (text[i + 1] == '\n') ++line;
        i += 2;
        continue;
      }
      if (starts(close)) {
        i += close.size();
        return;
      }
      if (text[i] == '\n') {
        if (close.size() == 1) return;  // a one-line string ends at the line; toml++ reports it
        ++line;
      }
      ++i;
    }
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (starts(R"(""")")) {
      i += 3;
      skip_until(R"(""")", true);
    } else if (starts("'''")) {
      i += 3;
      skip_until("'''", false);
    } else if (c == '"') {
      ++i;
      skip_until("\"", true);
    } else if (c == '\'') {
      ++i;
      skip_until("'", false);
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      return fmt::format("{}: a non-ASCII character outside a string or a comment (TOML allows it only in quotes)",
                         line);
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

}  // namespace

sys::Expected<ScanConfig> parse_config(std::string_view toml_text, const std::string& origin) {
  ScanConfig config;
  if (auto bad = bad_table_header(toml_text)) return sys::Error{sys::ErrorCode::invalid, origin + ":" + *bad};
  if (auto bad = non_ascii_outside_strings(toml_text)) return sys::Error{sys::ErrorCode::invalid, origin + ":" + *bad};
  toml::table doc;
  try {
    doc = toml::parse(toml_text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream os;
    os << origin << ":" << e.source().begin.line << ": " << e.description();
    return sys::Error{sys::ErrorCode::invalid, os.str()};
  }
  const toml::table* tool = doc["tool"]["gpudoctor"].as_table();
  if (tool == nullptr) return config;  // no [tool.gpudoctor]: the defaults, from nowhere
  config.origin = origin;
  for (const auto& [key, node] : *tool) {
    std::string_view k = key.str();
    if (k == "select" || k == "ignore" || k == "exclude") {
      auto list = string_list(node, origin, k);
      if (!list) return list.error();
      if (k != "exclude") {
        if (auto bad = check_ids(*list)) return invalid(origin, std::string(k) + ": no rule named " + *bad);
      }
      if (k == "select") config.selected = std::set<std::string>(list->begin(), list->end());
      if (k == "ignore") config.ignored.insert(list->begin(), list->end());
      if (k == "exclude") config.exclude = std::move(*list);
    } else if (k == "include_tests") {
      auto v = node.value<bool>();
      if (!v) return invalid(origin, "include_tests must be true or false");
      config.include_tests = *v;
    } else if (k == "max_file_mb") {
      auto mb = node.value<std::int64_t>();
      if (!mb || *mb <= 0 || *mb > 4096) return invalid(origin, "max_file_mb must be an integer from 1 to 4096");
      config.max_file_bytes = static_cast<std::uint64_t>(*mb) << 20;
    } else if (k == "severity") {
      const auto* table = node.as_table();
      if (table == nullptr) return invalid(origin, "severity must be a table of rule id = \"error|warning|info\"");
      for (const auto& [id, level] : *table) {
        if (find_rule(id.str()) == nullptr) return invalid(origin, "severity: no rule named " + std::string(id.str()));
        auto v = level.value<std::string>();
        facts::Severity sev;
        if (v == "error") sev = facts::Severity::error;
        else if (v == "warning") sev = facts::Severity::warning;
        else if (v == "info") sev = facts::Severity::info;
        else return invalid(origin, "severity of " + std::string(id.str()) + " must be error, warning or info");
        config.severity[std::string(id.str())] = sev;
      }
    } else {
      return invalid(origin, "unknown key " + std::string(k) + " (known: select, ignore, exclude, max_file_mb, include_tests, severity)");
    }
  }
  return config;
}

sys::Expected<ScanConfig> load_config(const std::string& path) {
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) return sys::error_from_errno(ec.value(), path);
  if (size > k_max_config_bytes) return sys::Error{sys::ErrorCode::too_large, path + ": larger than 1 MiB"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return sys::error_from_errno(errno, path);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_config(text, path);
}

std::optional<std::string> find_pyproject(const std::string& start) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(start, ec);
  if (ec) return std::nullopt;
  if (!std::filesystem::is_directory(dir, ec)) dir = dir.parent_path();
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    auto candidate = dir / "pyproject.toml";
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

}  // namespace gpudoctor::scan
