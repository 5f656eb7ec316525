#include <scan/file_parts.hpp>

#include <cctype>

namespace gpudoctor::scan {
namespace {

bool starts_definition(std::string_view rest) {
  return rest.starts_with("def ") || rest.starts_with("class ") || rest.starts_with("async def ") ||
         rest.starts_with("@");
}

bool starts_import(std::string_view line) { return line.starts_with("import ") || line.starts_with("from "); }

// Keywords that continue the compound statement above them: never the start of a part.
bool continues_statement(std::string_view rest) {
  for (std::string_view k : {"else", "elif", "except", "finally"}) {
    if (!rest.starts_with(k)) continue;
    const char next = rest.size() > k.size() ? rest[k.size()] : ':';
    if (!(std::isalnum(static_cast<unsigned char>(next)) || next == '_')) return true;
  }
  return false;
}

// The byte offsets where top-level statements start (0 first), with whether each starts a definition.
struct Boundary {
  std::size_t at = 0;
  bool definition = false;
};

std::vector<Boundary> top_level_statements(std::string_view text) {
  std::vector<Boundary> out{{0, starts_definition(text)}};
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
      if (quote == 0 && depth == 0 && !continued && c != '\n' && c != ' ' && c != '\t' && c != '#' && c != '\r') {
        std::string_view rest = text.substr(i);
        if (i > 0 && !after_decorator && !continues_statement(rest)) out.push_back({i, starts_definition(rest)});
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

}  // namespace

std::vector<FilePart> split_parts(std::string_view text, std::size_t part_bytes, std::size_t max_statement_bytes) {
  const auto statements = top_level_statements(text);
  std::vector<FilePart> out;
  std::size_t begin = 0;  // of the part being filled
  for (std::size_t k = 0; k < statements.size(); ++k) {
    const std::size_t s = statements[k].at;
    const std::size_t e = k + 1 < statements.size() ? statements[k + 1].at : text.size();
    if (e - s > part_bytes) {
      if (s > begin) out.push_back({begin, s, false});
      out.push_back({s, e, e - s > max_statement_bytes});
      begin = e;
      continue;
    }
    const std::size_t held = s - begin;
    if (held > 0 && (held >= part_bytes + part_bytes / 2 || (held >= part_bytes && statements[k].definition))) {
      out.push_back({begin, s, false});
      begin = s;
    }
  }
  if (begin < text.size() || out.empty()) out.push_back({begin, text.size(), false});
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
