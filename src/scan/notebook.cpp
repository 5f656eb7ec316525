#include <scan/notebook.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

}  // namespace

std::string neutralise_magics(std::string cell, std::vector<Magic>* magics) {
  std::size_t first = cell.find_first_not_of(" \t\r\n");
  bool whole_cell = first != std::string::npos && cell.compare(first, 2, "%%") == 0 &&
                    !python_cell_magic(std::string_view(cell).substr(first, cell.find('\n', first) - first));
  std::size_t pos = 0;
  int row = 0;
  while (pos <= cell.size()) {
    std::size_t eol = cell.find('\n', pos);
    if (eol == std::string::npos) eol = cell.size();
    std::size_t lead = cell.find_first_not_of(" \t", pos);
    if (lead != std::string::npos && lead < eol) {
      char c = cell[lead];
      if (whole_cell || c == '%' || c == '!') {
        if (magics != nullptr && cell.compare(lead, 5, "%env ") == 0) {
          magics->push_back({row, cell.substr(lead, eol - lead)});
        }
        cell[lead] = '#';
      } else {
        // `files = !ls` / `t = %timeit -o f()`: keep the assignment, replace the escape by a value.
        std::size_t eq = cell.find('=', lead);
        if (eq != std::string::npos && eq < eol) {
          std::size_t v = cell.find_first_not_of(" \t", eq + 1);
          if (v != std::string::npos && v < eol && (cell[v] == '!' || cell[v] == '%') && cell[eq - 1] != '=' &&
              cell[eq - 1] != '!' && cell[eq - 1] != '<' && cell[eq - 1] != '>') {
            cell[v] = '0';
            for (std::size_t k = v + 1; k < eol; ++k) cell[k] = ' ';
          }
        }
      }
    }
    pos = eol + 1;
    ++row;
  }
  return cell;
}

sys::Expected<SourceText> notebook_source(const std::string& display, std::string_view json_text) {
  nlohmann::json nb = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (nb.is_discarded() || !nb.is_object()) {
    return sys::Error{sys::ErrorCode::invalid, display + ": not a notebook (not valid JSON); skipped"};
  }
  if (!nb.contains("cells") || !nb["cells"].is_array()) {
    return sys::Error{sys::ErrorCode::invalid, display + ": no \"cells\" array (nbformat 4 expected); skipped"};
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
  SourceText src;
  src.display = display;
  int index = 0, row = 0, skipped = 0;
  for (const auto& cell : nb["cells"]) {
    ++index;
    if (!cell.is_object() || !cell.contains("cell_type") || !cell["cell_type"].is_string()) {
      ++skipped;
      continue;
    }
    if (cell["cell_type"] != "code") continue;
    std::string code;
    const auto& source = cell.contains("source") ? cell["source"] : nlohmann::json();
    if (source.is_string()) {
      code = source.get<std::string>();
    } else if (source.is_array()) {
      for (const auto& line : source) {
        if (line.is_string()) code += line.get<std::string>();
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
    src.cells.push_back({fmt::format("cell {}", index), row});
    if (code.empty() || code.back() != '\n') code += '\n';
    for (char c : code) row += c == '\n';
    src.text += code;
  }
  if (skipped > 0) src.notes.push_back(fmt::format("{}: {} cell(s) without a usable cell_type or source; skipped", display, skipped));
  if (!is_valid_utf8(src.text)) src.notes.push_back(display + ": not valid UTF-8; scanned as far as it parses");
  return src;
}

}  // namespace gpudoctor::scan
