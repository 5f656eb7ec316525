// Writing a file so that a reader sees the old content or the new, never a part: the content goes
// to a temporary file in the same directory (a name node_exporter's textfile collector ignores: it
// reads *.prom only), is flushed to disk, and is renamed over the target.
// Thread-safety: independent calls are safe; two writers of one path race as rename(2) does.
#pragma once

#include <string>
#include <string_view>

#include <sys/error.hpp>

namespace gpudoctor::sys {

Expected<bool> write_file_atomically(const std::string& path, std::string_view content);

}  // namespace gpudoctor::sys
