// libFuzzer target for `scan`'s own parsing: the bytes as a .py file go through the whole Python
// scanner (tree-sitter parse, file facts, the dataflow pass, every rule; a very large input through
// the parts of file_parts.hpp), and as a pyproject.toml through the [tool.gpudoctor] reader.
// Nothing may crash, hang, or grow without bound; bad input is an error value, never an exception
// that escapes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <scan/analyzer.hpp>
#include <scan/config.hpp>
#include <scan/source.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (auto src = gpudoctor::scan::python_source("fuzz.py", text)) gpudoctor::scan::analyze(*src);
  (void)gpudoctor::scan::parse_config(text, "pyproject.toml");
  return 0;
}
