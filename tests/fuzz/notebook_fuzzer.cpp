// libFuzzer target: a notebook's JSON and a file's text, as `scan` reads them before parsing.
// notebook_source (nbformat 4 and 3, cell labels, the lines each cell holds in the .ipynb), magic
// neutralisation (same length, same line breaks, whatever the input) and the project index's class
// headers must never crash, hang or break their own invariants on any bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <scan/notebook.hpp>
#include <scan/project_index.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto src = gpudoctor::scan::notebook_source("fuzz.ipynb", text)) {
    // Every located line lies in a cell and, when known, on a line of the file.
    for (const auto& cell : src->cells) {
      for (int line : cell.file_lines) {
        if (line < 1 || static_cast<std::size_t>(line) > size + 1) std::abort();
      }
    }
    int rows = 0;
    for (char c : src->text) rows += c == '\n';
    for (int r = 0; r < rows; ++r) (void)src->locate(r, 0);
  }
  std::string cell(text);
  std::string out = gpudoctor::scan::neutralise_magics(cell);
  if (out.size() != cell.size()) std::abort();
  for (std::size_t i = 0; i < out.size(); ++i) {
    if ((out[i] == '\n') != (cell[i] == '\n')) std::abort();
  }
  gpudoctor::scan::ProjectIndex index;
  index.add_source(text);
  index.finish();
  (void)index.is_module_class("Net");
  return 0;
}
