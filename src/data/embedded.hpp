// The knowledge tables of data/, compiled into the binary by cmake/embed_data.cmake. A table is
// looked up by its path relative to data/ ("env_vars.tsv").
#pragma once

#include <span>
#include <string_view>

namespace gpudoctor::data {

struct EmbeddedFile {
  std::string_view path;
  std::string_view content;
};

std::span<const EmbeddedFile> embedded_files();

// The content of data/PATH; empty when there is no such table (a test asserts every table a
// module asks for exists).
std::string_view find(std::string_view path);

}  // namespace gpudoctor::data
