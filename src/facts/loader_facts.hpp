// What the dynamic loader would do with a library's DT_NEEDED entries: for each soname, the file it
// resolves to (or that none would), the rule that found it and every place that was tried on the way.
// Filled by probe/loader (resolve_soname, resolve_needed_tree); read by the toolchain checks
// (toolchain.lib_unresolved, toolchain.multiple_cuda_runtimes) and printed by `gpudoctor libs`.
//
// JSON: {"soname", "requested_by", "depth", "path", "rule", "rule_detail", "tried": [...]}; `path` is
// "" and `rule` is "not_found" when nothing would be loaded.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpudoctor::facts {

// The step of glibc's search (elf/dl-load.c, _dl_map_object) that produced the file, in search order.
enum class SearchRule {
  already_loaded,   // an object with this soname is already in the link map: no search at all
  direct_path,      // the name contains '/': opened as given (relative to the working directory)
  rpath,            // DT_RPATH of the requesting object or one of its loaders (only without DT_RUNPATH)
  ld_library_path,  // LD_LIBRARY_PATH
  runpath,          // DT_RUNPATH of the requesting object (not its loaders)
  cache,            // /etc/ld.so.cache
  default_dirs,     // the built-in system directories (/lib/x86_64-linux-gnu, ..., /lib, /usr/lib)
  not_found,
};

const char* to_string(SearchRule rule);

// One file the loader would have tried, and why it did not take it ("" when it did).
struct TriedPath {
  std::string path;
  SearchRule rule = SearchRule::not_found;
  std::string rejected;  // "no such file", "wrong ELF class: ELFCLASS32", "wrong machine: EM_AARCH64", ...
  bool operator==(const TriedPath&) const = default;
};

struct Resolution {
  std::string soname;        // the DT_NEEDED entry (or the name given to dlopen)
  std::string requested_by;  // path of the object whose DT_NEEDED named it
  int depth = 1;             // 1 = a direct dependency of the root object
  std::string path;          // the file that would be loaded, as the loader names it; "" when none
  SearchRule rule = SearchRule::not_found;
  std::string rule_detail;   // "DT_RPATH of /opt/x/libfoo.so", "/etc/ld.so.cache", ...
  std::vector<TriedPath> tried;
  bool found() const { return rule != SearchRule::not_found; }
  bool operator==(const Resolution&) const = default;
};

void to_json(nlohmann::json& j, const SearchRule& r);
void from_json(const nlohmann::json& j, SearchRule& r);
void to_json(nlohmann::json& j, const TriedPath& t);
void from_json(const nlohmann::json& j, TriedPath& t);
void to_json(nlohmann::json& j, const Resolution& r);
void from_json(const nlohmann::json& j, Resolution& r);

}  // namespace gpudoctor::facts
