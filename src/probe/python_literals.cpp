#include <probe/python_literals.hpp>

#include <util/text.hpp>

#include <optional>

namespace gpudoctor::probe {
namespace {

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A quoted string at the start of `s` (single or double quotes, simple escapes); nullopt if `s` does
// not start with one. `consumed` is set to the characters used.
std::optional<std::string> quoted(std::string_view s, std::size_t& consumed) {
  if (s.empty() || (s[0] != '\'' && s[0] != '"')) return std::nullopt;
  char q = s[0];
  std::string out;
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out.push_back(s[++i]);
    } else if (s[i] == q) {
      consumed = i + 1;
      return out;
    } else {
      out.push_back(s[i]);
    }
  }
  return std::nullopt;
}

// The value of a literal expression: the string's content for a string, else the trimmed text
// (None, True, 12, [...]) up to the end or a top-level ',' / ')' when `in_tuple`.
std::string literal_value(std::string_view s, bool in_tuple, std::size_t& consumed) {
  auto t = s;
  std::size_t i = 0;
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n')) ++i;
  std::size_t used = 0;
  if (auto str = quoted(t.substr(i), used)) {
    consumed = i + used;
    return *str;
  }
  int depth = 0;
  std::size_t j = i;
  for (; j < t.size(); ++j) {
    char c = t[j];
    if (c == '[' || c == '(' || c == '{') ++depth;
    if (c == ']' || c == '}' || (c == ')' && depth > 0)) --depth;
    else if (in_tuple && depth == 0 && (c == ',' || c == ')')) break;
    if (!in_tuple && c == '#') break;
  }
  consumed = j;
  return std::string(util::trim(t.substr(i, j - i)));
}

}  // namespace

PyAssignments parse_py_assignments(std::string_view source) {
  PyAssignments out;
  for (auto line : util::lines(source)) {
    if (line.empty() || !(is_ident_char(line[0]) && !(line[0] >= '0' && line[0] <= '9'))) continue;
    std::size_t i = 0;
    while (i < line.size() && is_ident_char(line[i])) ++i;
    std::string name(line.substr(0, i));
    auto rest = line.substr(i);
    auto eq = rest.find('=');
    if (eq == std::string_view::npos || (eq + 1 < rest.size() && rest[eq + 1] == '=')) continue;
    auto before = util::trim(rest.substr(0, eq));
    if (!before.empty() && before[0] != ':') continue;  // `a.b = ...`, `a[0] = ...`, `a += ...`
    std::size_t used = 0;
    out[name] = literal_value(rest.substr(eq + 1), /*in_tuple=*/false, used);
  }
  return out;
}

PyAssignments parse_py_pairs(std::string_view source) {
  PyAssignments out;
  for (std::size_t pos = source.find('('); pos != std::string_view::npos; pos = source.find('(', pos + 1)) {
    auto rest = source.substr(pos + 1);
    std::size_t skip = 0;
    while (skip < rest.size() && (rest[skip] == ' ' || rest[skip] == '\n')) ++skip;
    std::size_t used = 0;
    auto key = quoted(rest.substr(skip), used);
    if (!key) continue;
    auto after = rest.substr(skip + used);
    std::size_t k = 0;
    while (k < after.size() && (after[k] == ' ' || after[k] == '\n')) ++k;
    if (k >= after.size() || after[k] != ',') continue;
    std::size_t vused = 0;
    out[*key] = literal_value(after.substr(k + 1), /*in_tuple=*/true, vused);
  }
  return out;
}

}  // namespace gpudoctor::probe
