#include <scan/notebook.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace gpudoctor::scan {
namespace {

// Cell magics whose body is still Python (IPython's timing and capture magics).
constexpr std::string_view k_python_cell_magics[] = {"time", "timeit", "capture", "prun", "debug"};

bool python_cell_magic(std::string_view first_line) {
  std::string_view name = first_line.substr(2);
  auto end = name.find_first_of(" \t\r");
  name = name.substr(0, end);
  for (auto m : k_python_cell_magics) {
    if (name == m) return true;
  }
  return false;
}

// Where a line of Python stands after the lines before it: inside brackets, a triple-quoted string
// or a backslash continuation, a line that starts with '%' or '!' is the rest of an expression
// (`print("loss = %.4f"\n      % loss)`), not IPython syntax.
class Continuation {
 public:
  bool continues() const { return m_depth > 0 || m_triple != 0 || m_backslash; }
  // Reads one line (without its '\n').
  void read(std::string_view line) {
    m_backslash = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (m_triple != 0) {
        if (c == '\\') ++i;
        else if (c == m_triple && line.substr(i, 3) == std::string(3, m_triple)) {
          m_triple = 0;
          i += 2;
        }
        continue;
      }
      if (c == '#') return;  // a comment runs to the end of the line
      if (c == '"' || c == '\'') {
        if (line.substr(i, 3) == std::string(3, c)) {
          m_triple = c;
          i += 2;
          continue;
        }
        // A one-line string: skip to its end (an unterminated one ends the line).
        for (++i; i < line.size() && line[i] != c; ++i) {
          if (line[i] == '\\') ++i;
        }
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++m_depth;
      if ((c == ')' || c == ']' || c == '}') && m_depth > 0) --m_depth;
      if (c == '\\' && i + 1 == line.size()) m_backslash = true;
    }
  }

 private:
  int m_depth = 0;
  char m_triple = 0;
  bool m_backslash = false;
};

}  // namespace

std::string neutralise_magics(std::string cell, std::vector<Magic>* magics) {
  std::size_t first = cell.find_first_not_of(" \t\r\n");
  bool whole_cell = first != std::string::npos && cell.compare(first, 2, "%%") == 0 &&
                    !python_cell_magic(std::string_view(cell).substr(first, cell.find('\n', first) - first));
  std::size_t pos = 0;
  int row = 0;
  Continuation state;
  while (pos <= cell.size()) {
    std::size_t eol = cell.find('\n', pos);
    if (eol == std::string::npos) eol = cell.size();
    std::size_t lead = cell.find_first_not_of(" \t", pos);
    const bool continued = state.continues();
    if (lead != std::string::npos && lead < eol && !continued) {
      char c = cell[lead];
      if (whole_cell || c == '%' || c == '!') {
        if (magics != nullptr && cell.compare(lead, 5, "%env ") == 0) {
          magics->push_back({row, cell.substr(lead, eol - lead)});
        }
        cell[lead] = '#';
      } else {
        // `files = !ls` / `t = %timeit -o f()`: keep the assignment, replace the escape by a value.
        std::size_t eq = cell.find('=', lead);
        // Only after a plain target (`files`, `a, b`, `self.out`): an '=' inside a call or a
        // string (`print("loss = %.4f" % x)`) is no assignment.
        auto target = std::string_view(cell).substr(lead, eq == std::string::npos ? 0 : eq - lead);
        bool plain = !target.empty() && target.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_., \t") == std::string_view::npos;
        if (eq != std::string::npos && eq < eol && plain) {
          std::size_t v = cell.find_first_not_of(" \t", eq + 1);
          if (v != std::string::npos && v < eol && (cell[v] == '!' || cell[v] == '%') && cell[eq - 1] != '=' &&
              cell[eq - 1] != '!' && cell[eq - 1] != '<' && cell[eq - 1] != '>') {
            cell[v] = '0';
            for (std::size_t k = v + 1; k < eol; ++k) cell[k] = ' ';
          }
        }
      }
    }
    if (eol > pos) state.read(std::string_view(cell).substr(pos, eol - pos));
    pos = eol + 1;
    ++row;
  }
  return cell;
}

namespace {

// The 1-based line of `offset` in `text`, counting from `from_line` at `from`.
int line_at(std::string_view text, std::size_t from, int from_line, std::size_t offset) {
  return from_line + static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(from),
                                                 text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// Finds, in the notebook's own JSON text, the line each source line of the cells is stored on, so
// that SARIF can point into the .ipynb file. Cells are found in order by their source key; each
// source line by its JSON spelling after it. A line not found (another escaping) gets its cell's
// source key line.
class FileLines {
 public:
  explicit FileLines(std::string_view json) : m_json(json) {}
  // The next cell (any type), by its cell_type key.
  void next_cell() {
    auto at = m_json.find("\"cell_type\"", m_pos);
    if (at != std::string_view::npos) advance(at + 1);
  }
  // The source key of the current cell ("source" in nbformat 4, "input" in 3).
  void source_key(std::string_view key) {
    auto at = m_json.find("\"" + std::string(key) + "\"", m_pos);
    if (at == std::string_view::npos) return;
    advance(at);
    m_cell_line = m_line;
  }
  int line_of(const std::string& source_line) {
    auto quoted = nlohmann::json(source_line).dump();
    auto at = m_json.find(quoted, m_pos);
    // Not past the next cell: a line that is not found stays on the key's line.
    auto next = m_json.find("\"cell_type\"", m_pos);
    if (at == std::string_view::npos || (next != std::string_view::npos && at > next)) return m_cell_line;
    advance(at);
    return m_line;
  }

 private:
  void advance(std::size_t to) {
    m_line = line_at(m_json, m_pos, m_line, to);
    m_pos = to;
  }
  std::string_view m_json;
  std::size_t m_pos = 0;
  int m_line = 1;
  int m_cell_line = 1;
};

}  // namespace

sys::Expected<SourceText> notebook_source(const std::string& display, std::string_view json_text) {
  nlohmann::json nb = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (nb.is_discarded() || !nb.is_object()) {
    return sys::Error{sys::ErrorCode::invalid, display + ": not a notebook (not valid JSON); skipped"};
  }
  // nbformat 4 keeps the cells at the top; nbformat 3 in worksheets, with the code in "input" and
  // the execution count in "prompt_number".
  const bool v3 = !nb.contains("cells") && nb.contains("worksheets") && nb["worksheets"].is_array();
  nlohmann::json cells = nlohmann::json::array();
  if (v3) {
    for (const auto& ws : nb["worksheets"]) {
      if (!ws.is_object() || !ws.contains("cells") || !ws["cells"].is_array()) continue;
      for (const auto& c : ws["cells"]) cells.push_back(c);
    }
  } else if (nb.contains("cells") && nb["cells"].is_array()) {
    cells = std::move(nb["cells"]);
  } else {
    return sys::Error{sys::ErrorCode::invalid, display + ": no \"cells\" array (nor nbformat 3 worksheets); skipped"};
  }
  const auto* lang = nb.contains("metadata") && nb["metadata"].is_object() && nb["metadata"].contains("language_info") &&
                             nb["metadata"]["language_info"].is_object() &&
                             nb["metadata"]["language_info"].contains("name") &&
                             nb["metadata"]["language_info"]["name"].is_string()
                         ? &nb["metadata"]["language_info"]["name"]
                         : nullptr;
  if (lang != nullptr && lang->get<std::string>() != "python") {
    return sys::Error{sys::ErrorCode::invalid,
                      display + ": a " + lang->get<std::string>() + " notebook, not Python; skipped"};
  }
  const std::string source_key = v3 ? "input" : "source";
  const std::string count_key = v3 ? "prompt_number" : "execution_count";
  SourceText src;
  src.display = display;
  FileLines file_lines(json_text);
  int code_index = 0, row = 0, skipped = 0;
  for (const auto& cell : cells) {
    if (cell.is_object() && cell.contains("cell_type")) file_lines.next_cell();
    if (!cell.is_object() || !cell.contains("cell_type") || !cell["cell_type"].is_string()) {
      ++skipped;
      continue;
    }
    if (cell["cell_type"] != "code") continue;
    ++code_index;
    std::string code;
    std::vector<int> lines_in_file;
    const auto& source = cell.contains(source_key) ? cell[source_key] : nlohmann::json();
    file_lines.source_key(source_key);
    if (source.is_string()) {
      code = source.get<std::string>();
      int line = file_lines.line_of(code);
      lines_in_file.assign(static_cast<std::size_t>(std::count(code.begin(), code.end(), '\n')) + 1, line);
    } else if (source.is_array()) {
      for (const auto& line : source) {
        if (!line.is_string()) continue;
        const auto& text = line.get_ref<const std::string&>();
        int at = file_lines.line_of(text);
        // One array entry is one line as nbformat writes it; an entry holding several lines keeps
        // its first line's place for all of them.
        std::size_t breaks = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
        for (std::size_t k = 0; k < std::max<std::size_t>(breaks, 1); ++k) lines_in_file.push_back(at);
        code += text;
      }
    } else {
      ++skipped;
      continue;
    }
    if (code.find('\0') != std::string::npos) {
      ++skipped;
      continue;
    }
    std::vector<Magic> magics;
    code = neutralise_magics(std::move(code), &magics);
    for (auto& m : magics) src.magics.push_back({row + m.row, std::move(m.text)});
    // What Jupyter shows beside the cell: its execution count when it ran, else its place among
    // the code cells (Markdown cells are not counted).
    const auto& count = cell.contains(count_key) ? cell[count_key] : nlohmann::json();
    std::string label = count.is_number_integer() ? fmt::format("cell [{}]", count.get<std::int64_t>())
                                                   : fmt::format("code cell {}", code_index);
    src.cells.push_back({std::move(label), row, std::move(lines_in_file)});
    if (code.empty() || code.back() != '\n') code += '\n';
    for (char c : code) row += c == '\n';
    src.text += code;
  }
  if (skipped > 0) src.notes.push_back(fmt::format("{}: {} cell(s) without a usable cell_type or source; skipped", display, skipped));
  if (!is_valid_utf8(src.text)) src.notes.push_back(display + ": not valid UTF-8; scanned as far as it parses");
  return src;
}

}  // namespace gpudoctor::scan
