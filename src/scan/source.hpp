// SourceText: the Python text of one file as the analysis sees it, plus how to map a position in it
// back to what the user sees. A .py file is its own text; a notebook's code cells are joined in
// notebook order (the order "Run All" executes them, so one cell's imports and CUDA use are visible
// to the next, as in the kernel) with magics neutralised in place (see notebook.hpp).
// Files are read with a size bound: a file past the bound is skipped with a note, never truncated
// (a truncated file would be analysed as if its end were missing).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <facts/finding.hpp>
#include <sys/error.hpp>

namespace gpudoctor::scan {

struct CellSpan {
  // What Jupyter shows beside the cell: "cell [7]" (its execution count) when it ran, else "code
  // cell 3" (its place among the code cells).
  std::string label;
  int first_row = 0;  // 0-based row in SourceText::text where the cell's source starts
  std::vector<int> file_lines;  // 1-based line in the .ipynb file of each of the cell's lines
};

// A line-magic the neutralisation turned into a comment that still means something to a rule
// (`%env CUDA_VISIBLE_DEVICES=...`).
struct Magic {
  int row = 0;
  std::string text;
};

struct SourceText {
  std::string display;  // the path as given on the command line (or relative to a given directory)
  std::string text;
  std::vector<CellSpan> cells;  // empty for plain .py files
  std::vector<Magic> magics;
  std::vector<std::string> notes;  // e.g. "not valid UTF-8"

  // The user-facing location of a 0-based (row, byte column) in `text`.
  facts::SourceLocation locate(int row, int column) const;
};

inline constexpr std::uint64_t k_default_max_file_bytes = 32ull << 20;

// Reads a .py or .ipynb file. Errors: not_found/permission_denied/io, too_large (over max_bytes),
// invalid (binary content, a notebook that is not JSON or lacks cells).
sys::Expected<SourceText> load_source(const std::string& path, const std::string& display, std::uint64_t max_bytes);

// Builds the SourceText of a .py file's content (exposed for tests).
sys::Expected<SourceText> python_source(std::string display, std::string content);

bool is_valid_utf8(std::string_view s);

}  // namespace gpudoctor::scan
