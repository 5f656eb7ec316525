// A very large .py file (generated code, a dump of many scripts) is analysed in parts, so that
// memory stays a small multiple of the file: tree-sitter's tree costs about 25 bytes per source
// byte, and only one part's tree is alive at a time. A part starts where a top-level `def`,
// `class`, decorator or `async def` starts: outside every string, bracket and continued line.
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

// Byte offsets where the parts start: the first is 0; each later one is the start of a line that
// begins a top-level definition at least `part_bytes` after the previous start. A file without
// such lines is one part, however large.
std::vector<std::size_t> part_starts(std::string_view text, std::size_t part_bytes);

// The text that stands in for everything before `start`: one line per line of the file, empty
// except the top-level import statements, which are kept (with the lines of a parenthesised
// import). The rows of the part then stay the file's rows, and its names resolve as in the file.
std::string imports_only_prefix(std::string_view text, std::size_t start);

}  // namespace gpudoctor::scan
