// A very large .py file (generated code, a dump of many scripts) is analysed in parts, so that
// memory stays a small multiple of the file: tree-sitter's tree and the flat copy of it cost 25 to
// 100 bytes per source byte, and only one part's tree is alive at a time. A part starts where a
// top-level statement starts (outside every string, bracket and continued line), preferably a
// `def`, `class`, decorator or `async def`. A single top-level statement too large to parse within
// that bound (a giant literal, a generated function of megabytes) is a part of its own that is not
// analysed; the analysis says so.
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::scan {

// Files above this size are analysed in parts of about k_part_bytes.
inline constexpr std::size_t k_parts_above_bytes = 4u << 20;
inline constexpr std::size_t k_part_bytes = 1u << 20;
// In a file analysed in parts, a top-level statement larger than this is not analysed.
inline constexpr std::size_t k_max_statement_bytes = 2u << 20;
// In a file analysed in parts, at most this many findings of one rule are kept; a note counts the rest.
inline constexpr std::size_t k_max_findings_per_rule = 200;

struct FilePart {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool too_large = false;  // one top-level statement above the bound: not analysed
  bool operator==(const FilePart&) const = default;
};

// The parts of `text`, contiguous, in order, covering all of it. A part ends before a top-level
// definition once it holds at least `part_bytes`, or before any top-level statement once it holds
// half as much again. A top-level statement larger than `part_bytes` is a part of its own, marked
// too_large when it exceeds `max_statement_bytes`. A text without top-level statement boundaries
// is one part.
std::vector<FilePart> split_parts(std::string_view text, std::size_t part_bytes, std::size_t max_statement_bytes);

// The text that stands in for everything before `start`: one line per line of the file, empty
// except the top-level import statements, which are kept (with the lines of a parenthesised
// import). The rows of the part then stay the file's rows, and its names resolve as in the file.
std::string imports_only_prefix(std::string_view text, std::size_t start);

}  // namespace gpudoctor::scan
