#include <scan/config.hpp>

#include <fnmatch.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

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

// toml++ 3.3 assumes, without checking, things its callers were meant to have checked: that a table
// header's key starts with a key character (`[&`, `[[` then the end of the line), that a value
// starts where one is expected (`x = [}`, `x = }`, `x = # c`), and that an inline table's key does
// (`{ & = 1 }`, `{ a = 1, }`). Each is a failed assertion in a debug build and an "assume" the
// optimiser may exploit in a release build (all found by tests/fuzz scan_fuzzer). So the structure
// is walked here first, outside strings and comments, and such text is refused with its line.
// A line that starts with '[' is a table header only outside a value: lines of a multi-line array
// (`[1, 2],`, `[`, `[{a = 1}]`) are not.
std::optional<std::string> bad_table_header(std::string_view text) {
  std::size_t line = 0;
  std::vector<char> open;  // the '[' and '{' of values not yet closed
  enum class Want : std::uint8_t { nothing, value, key_or_close, key };
  Want want = Want::nothing;
  std::string_view close;  // the delimiter of an open multi-line string
  const std::string_view basic_ml = R"(""")", literal_ml = "'''";
  auto refuse = [&](std::string_view what) {
    return fmt::format("{}: Error while parsing value: {}", line, what);
  };
  auto key_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || static_cast<unsigned char>(c) >= 0x80;
  };
  for (std::string_view l : util::lines(text)) {
    ++line;
    std::size_t first = l.find_first_not_of(" \t");
    const bool header = close.empty() && open.empty() && want == Want::nothing && first != std::string_view::npos &&
                        l[first] == '[';
    for (std::size_t k = header ? l.size() : 0; k < l.size(); ++k) {
      if (!close.empty()) {
        if (close == basic_ml && l[k] == '\\') {
          ++k;
        } else if (l.substr(k, 3) == close) {
          k += 2;
          close = {};
        }
        continue;
      }
      char c = l[k];
      if (c == ' ' || c == '\t' || c == '\r') continue;
      if (c == '#') {
        if (want != Want::nothing && (open.empty() || open.back() == '{')) return refuse("expected a value, saw a comment");
        break;
      }
      if (l.substr(k, 3) == basic_ml || l.substr(k, 3) == literal_ml) {
        close = l.substr(k, 3) == literal_ml ? literal_ml : basic_ml;
        k += 2;
        want = Want::nothing;
      } else if (c == '"' || c == '\'') {
        for (++k; k < l.size() && l[k] != c; ++k) {
          if (c == '"' && l[k] == '\\') ++k;
        }
        want = Want::nothing;
      } else if (c == '=') {
        want = Want::value;
      } else if (c == '[') {
        open.push_back('[');
        want = Want::value;
      } else if (c == '{') {
        open.push_back('{');
        want = Want::key_or_close;
      } else if (c == ']') {
        if (!open.empty() && open.back() == '{') return refuse("expected '}', saw ']'");
        if (want != Want::nothing && want != Want::value) return refuse("expected a key, saw ']'");
        if (want == Want::value && (open.empty() || open.back() != '[')) return refuse("expected a value, saw ']'");
        if (!open.empty()) open.pop_back();
        want = Want::nothing;
      } else if (c == '}') {
        if (want == Want::value || want == Want::key) return refuse("expected a value or a key, saw '}'");
        if (!open.empty() && open.back() == '[') return refuse("expected ']', saw '}'");
        if (!open.empty()) open.pop_back();
        want = Want::nothing;
      } else if (c == ',') {
        if (want != Want::nothing) return refuse("expected a value, saw ','");
        if (!open.empty()) want = open.back() == '[' ? Want::value : Want::key;
      } else if (want == Want::key || want == Want::key_or_close) {
        if (!key_char(c)) return refuse(fmt::format("expected a key, saw '{}'", util::sanitize_utf8(l.substr(k, 1))));
        want = Want::nothing;
      } else {
        want = Want::nothing;  // a bare key, a number, a date, true or false
      }
    }
    // The end of the line: a value is still wanted only inside an array (they span lines).
    if (!header && close.empty() && want != Want::nothing && (open.empty() || open.back() == '{')) {
      return refuse("expected a value, saw the end of the line");
    }
    if (!header) continue;
    std::size_t i = first;
    ++i;
    if (i < l.size() && l[i] == '[') ++i;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    if (i >= l.size()) {  // `[[` then the end of the line: toml++ asserts on that too (found by the fuzz target)
      return fmt::format("{}: Error while parsing key: expected bare key starting character or string delimiter, saw "
                         "the end of the line",
                         line);
    }
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

// toml++ 3.3 also assumes that a non-ASCII character it tests for whitespace is one of the Unicode
// spaces it knows: others (U+026C, bytes C9 AC, among them) reach a TOML_UNREACHABLE in its
// generated table, undefined behaviour in a release build (found by tests/fuzz scan_fuzzer). It
// tests any character it reads outside a string, and after a syntax error even characters inside
// what was meant as one. So toml++ is only ever given ASCII, with the same meaning: a non-ASCII
// character in a basic string (or quoted key) becomes its \u escape, a literal string that holds one
// becomes the equivalent basic string, one in a comment becomes '?'. Outside strings and comments
// TOML 1.0 allows none: that is an error here, with its line. Invalid UTF-8 is an error too.
sys::Expected<std::string> ascii_toml(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  std::size_t line = 1;
  std::size_t i = 0;
  auto fail = [&](std::string_view what) {
    return sys::Error{sys::ErrorCode::invalid, fmt::format("{}: {}", line, what)};
  };
  // The code point at i (advancing i), or nullopt for invalid UTF-8.
  auto code_point = [&]() -> std::optional<char32_t> {
    auto b = static_cast<unsigned char>(text[i]);
    std::size_t n = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > text.size()) return std::nullopt;
    char32_t c = b & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      auto cb = static_cast<unsigned char>(text[i + k]);
      if ((cb & 0xC0) != 0x80) return std::nullopt;
      c = (c << 6) | (cb & 0x3F);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) || (c >= 0xD800 && c <= 0xDFFF)) return std::nullopt;
    i += n;
    return c;
  };
  auto escape = [](char32_t c) { return c <= 0xFFFF ? fmt::format("\\u{:04X}", static_cast<std::uint32_t>(c)) : fmt::format("\\U{:08X}", static_cast<std::uint32_t>(c)); };
  auto starts = [&](std::string_view what) { return text.substr(i, what.size()) == what; };
  // A string from i (past its opening delimiter) to its closing one, written as a basic string.
  auto string = [&](std::string_view close, bool literal) -> std::optional<sys::Error> {
    const bool one_line = close.size() == 1;
    while (i < text.size()) {
      char c = text[i];
      if (!literal && c == '\\' && i + 1 < text.size()) {
        if (static_cast<unsigned char>(text[i + 1]) >= 0x80) {  // toml++ reports the bad escape; keep it ASCII
          out += "\\?";
          ++i;
          if (!code_point()) return fail("invalid UTF-8");
          continue;
        }
        if (text[i + 1] == '\n') ++line;
        out.append(text.substr(i, 2));
        i += 2;
        continue;
      }
      if (starts(close)) {
        out += literal ? (one_line ? "\"" : "\"\"\"") : std::string(close);
        i += close.size();
        return std::nullopt;
      }
      if (c == '\n') {
        if (one_line) return std::nullopt;  // the string ends at the line; toml++ reports it
        ++line;
      }
      if (static_cast<unsigned char>(c) >= 0x80) {
        auto cp = code_point();
        if (!cp) return fail("invalid UTF-8");
        out += escape(*cp);
        continue;
      }
      if (literal && (c == '\\' || c == '"')) out += '\\';
      out += c;
      ++i;
    }
    return std::nullopt;
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      out += c;
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') {
        auto b = static_cast<unsigned char>(text[i]);
        if (b >= 0x80) {
          if (!code_point()) return fail("invalid UTF-8");
          out += '?';
        } else {
          out += text[i++];
        }
      }
    } else if (starts(R"(""")") || starts("'''")) {
      bool literal = c == '\'';
      out += R"(""")";
      i += 3;
      if (auto e = string(literal ? "'''" : R"(""")", literal)) return *e;
    } else if (c == '"' || c == '\'') {
      out += '"';
      ++i;
      if (auto e = string(c == '"' ? "\"" : "'", c == '\'')) return *e;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      return fail("a non-ASCII character outside a string or a comment (TOML allows it only in quotes)");
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace

sys::Expected<ScanConfig> parse_config(std::string_view toml_text, const std::string& origin) {
  ScanConfig config;
  if (auto bad = bad_table_header(toml_text)) return sys::Error{sys::ErrorCode::invalid, origin + ":" + *bad};
  auto ascii = ascii_toml(toml_text);
  if (!ascii) return sys::Error{sys::ErrorCode::invalid, origin + ":" + ascii.error().message};
  toml::table doc;
  try {
    doc = toml::parse(*ascii, origin);
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
