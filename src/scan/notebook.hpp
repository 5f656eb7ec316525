// Jupyter notebooks: the code cells of an .ipynb (nbformat 4, or 3 with its worksheets) as one Python text. IPython syntax that
// is not Python is neutralised without moving any position: a line magic or shell escape (`%pip`,
// `!nvidia-smi`) becomes a comment in place, `x = !ls` keeps the assignment with a placeholder value,
// and a cell magic other than the timing ones (`%%bash`, `%%writefile`) comments out its whole cell.
// Lines that continue an expression (inside brackets, a triple-quoted string, after a backslash) are
// Python whatever they start with. Markdown and raw cells are skipped. A cell is labelled as Jupyter
// shows it: "cell [7]" by its execution count, "code cell 3" by its place among the code cells when
// it never ran.
#pragma once

#include <string>
#include <string_view>

#include <scan/source.hpp>
#include <sys/error.hpp>

namespace gpudoctor::scan {

// Errors (code invalid): not JSON, no cells (nor nbformat 3 worksheets), not a Python kernel.
// Cells with missing or malformed fields are skipped with a note.
sys::Expected<SourceText> notebook_source(const std::string& display, std::string_view json_text);

// Neutralises IPython syntax in one cell's source (exposed for tests). Same length, same line breaks.
// Line magics that rules read (`%env`) are appended to `magics` with rows relative to the cell.
std::string neutralise_magics(std::string cell, std::vector<Magic>* magics = nullptr);

}  // namespace gpudoctor::scan
