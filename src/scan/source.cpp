#include <scan/source.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include <scan/notebook.hpp>

namespace gpudoctor::scan {

facts::SourceLocation SourceText::locate(int row, int column) const {
  facts::SourceLocation loc{display, row + 1, column + 1, ""};
  if (cells.empty()) return loc;
  auto it = std::upper_bound(cells.begin(), cells.end(), row,
                             [](int r, const CellSpan& c) { return r < c.first_row; });
  if (it == cells.begin()) return loc;
  --it;
  loc.cell = it->label;
  loc.line = row - it->first_row + 1;
  if (static_cast<std::size_t>(loc.line) <= it->file_lines.size()) loc.file_line = it->file_lines[static_cast<std::size_t>(loc.line - 1)];
  return loc;
}

bool is_valid_utf8(std::string_view s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + static_cast<std::size_t>(len) > n || (len == 2 && c < 0xC2)) return false;
    for (int k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0xC0) != 0x80) return false;
    }
    i += static_cast<std::size_t>(len);
  }
  return true;
}

sys::Expected<SourceText> python_source(std::string display, std::string content) {
  // A NUL byte never occurs in Python source (CPython refuses it); it marks a binary file.
  if (std::memchr(content.data(), '\0', content.size()) != nullptr) {
    return sys::Error{sys::ErrorCode::invalid, display + ": binary content (NUL bytes), not Python source; skipped"};
  }
  SourceText src;
  if (!is_valid_utf8(content)) src.notes.push_back(display + ": not valid UTF-8; scanned as far as it parses");
  src.display = std::move(display);
  src.text = std::move(content);
  return src;
}

sys::Expected<SourceText> load_source(const std::string& path, const std::string& display, std::uint64_t max_bytes) {
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) return sys::error_from_errno(ec.value(), display);
  if (size > max_bytes) {
    return sys::Error{sys::ErrorCode::too_large,
                      fmt::format("{}: {} MiB is over the {} MiB limit (tool.gpudoctor max_file_mb); skipped", display,
                                  size >> 20, max_bytes >> 20)};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return sys::error_from_errno(errno, display);
  std::string content;
  content.resize(static_cast<std::size_t>(size));
  in.read(content.data(), static_cast<std::streamsize>(size));
  content.resize(static_cast<std::size_t>(in.gcount()));
  // The file may have grown between stat and read: the bound holds on what we keep, and a file that
  // grew past it is treated as too large rather than truncated.
  if (in.peek() != std::char_traits<char>::eof()) {
    return sys::Error{sys::ErrorCode::too_large, display + ": grew while being read; skipped"};
  }
  if (path.size() >= 6 && path.compare(path.size() - 6, 6, ".ipynb") == 0) return notebook_source(display, content);
  return python_source(display, std::move(content));
}

}  // namespace gpudoctor::scan
