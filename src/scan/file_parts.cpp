#include <scan/file_parts.hpp>

namespace gpudoctor::scan {
namespace {

bool starts_definition(std::string_view rest) {
  return rest.starts_with("def ") || rest.starts_with("class ") || rest.starts_with("async def ") ||
         rest.starts_with("@");
}

bool starts_import(std::string_view line) { return line.starts_with("import ") || line.starts_with("from "); }

}  // namespace

std::vector<std::size_t> part_starts(std::string_view text, std::size_t part_bytes) {
  std::vector<std::size_t> out{0};
  // A small lexer: enough of Python's tokens to know whether a line starts at the top level.
  int depth = 0;          // open brackets
  char quote = 0;         // the quote of the string we are in, or 0
  bool triple = false;
  bool continued = false;  // the previous line ended with a backslash
  bool line_start = true;
  bool after_decorator = false;  // the last top-level line was a decorator: its definition follows
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (line_start) {
      line_start = false;
      if (quote == 0 && depth == 0 && !continued && c != '\n' && c != ' ' && c != '\t' && c != '#') {
        if (!after_decorator && i - out.back() >= part_bytes && starts_definition(text.substr(i))) out.push_back(i);
        after_decorator = c == '@';
      }
      continued = false;
    }
    if (c == '\n') {
      line_start = true;
      if (quote != 0 && !triple) quote = 0;  // an unterminated one-line string ends with its line
      continue;
    }
    if (quote != 0) {
      if (c == '\\') {
        if (i + 1 < text.size() && text[i + 1] == '\n') continue;  // the newline is read next
        ++i;
        continue;
      }
      if (c != quote) continue;
      if (!triple) {
        quote = 0;
      } else if (text.substr(i, 3) == std::string(3, quote)) {
        quote = 0;
        i += 2;
      }
      continue;
    }
    switch (c) {
      case '#':
        while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        break;
      case '\\':
        if (i + 1 < text.size() && text[i + 1] == '\n') continued = true;
        break;
      case '(': case '[': case '{': ++depth; break;
      case ')': case ']': case '}':
        if (depth > 0) --depth;
        break;
      case '\'': case '"':
        quote = c;
        triple = text.substr(i, 3) == std::string(3, c);
        if (triple) i += 2;
        break;
      default: break;
    }
  }
  return out;
}

std::string imports_only_prefix(std::string_view text, std::size_t start) {
  std::string out;
  bool in_import = false;  // inside the parentheses of `from x import (`
  std::size_t pos = 0;
  while (pos < start) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos || end >= start) end = start;
    std::string_view line = text.substr(pos, end - pos);
    if (in_import || starts_import(line)) {
      out += line;
      if (!in_import) in_import = line.find('(') != std::string_view::npos && line.find(')') == std::string_view::npos;
      else in_import = line.find(')') == std::string_view::npos;
    }
    out += '\n';
    pos = end + 1;
  }
  return out;
}

}  // namespace gpudoctor::scan
