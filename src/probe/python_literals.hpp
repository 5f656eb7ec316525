// Reading the generated Python files that framework builds describe themselves in, without running
// Python: torch/version.py and paddle/version/__init__.py are top-level assignments of literals
// (`cuda = '12.1'`, `hip: Optional[str] = None`), TensorFlow's build_info.py is
// `build_info = collections.OrderedDict([('cuda_version', '12.3'), ('is_cuda_build', True), ...])`.
// Only str / None / True / False / number literals are understood; anything else is kept as its
// source text, so a caller can tell "None" from "not assigned".
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace gpudoctor::probe {

// A literal's value as Python would print it with str(): "12.1", "None", "True", "['sm_80']".
using PyAssignments = std::map<std::string, std::string, std::less<>>;

// Top-level `NAME = LITERAL` and `NAME: ANNOTATION = LITERAL` lines (the last assignment wins).
PyAssignments parse_py_assignments(std::string_view source);

// The ('key', value) pairs of every tuple in the text, as in build_info.py's OrderedDict.
PyAssignments parse_py_pairs(std::string_view source);

}  // namespace gpudoctor::probe
