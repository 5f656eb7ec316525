// Path string helpers for absolute Linux paths (no file access).
#pragma once

#include <string>
#include <string_view>

namespace gpudoctor::util {

// Joins an absolute Linux path and a name ("/dev" + "nvidia0").
std::string join_path(std::string_view dir, std::string_view name);
// The last component ("/a/b/c" -> "c").
std::string_view base_name(std::string_view path);
// Everything before the last component ("/a/b/c" -> "/a/b"; "/a" -> "/").
std::string_view dir_name(std::string_view path);

}  // namespace gpudoctor::util
