// A model of glibc's ld.so search for a library named without a '/' (elf/dl-load.c, _dl_map_object
// and open_path; man ld.so(8)), evaluated over a sys::FileSystem so that it works on a captured tree
// and never loads anything:
//   0. an object whose soname is already loaded is reused (resolve_needed_tree tracks this);
//   1. DT_RPATH of the requesting object, then of the object that loaded it, and so on up to the
//      root, then of the main program, unless the requesting object has DT_RUNPATH;
//   2. LD_LIBRARY_PATH (ignored for set-uid programs, which this model does not treat);
//   3. DT_RUNPATH of the requesting object only;
//   4. /etc/ld.so.cache (entries with the ABI flags of the requesting object's class and machine;
//      with DF_1_NODEFLIB, entries in the default directories are skipped);
//   5. the default directories, unless the requesting object has DF_1_NODEFLIB.
// $ORIGIN, $LIB and $PLATFORM (also ${...}) are expanded in RPATH/RUNPATH. A candidate file of the
// wrong ELF class or machine is skipped and the search goes on, as open_verify does. Each directory's
// glibc-hwcaps subdirectories (LoaderContext::hwcaps_subdirs) are tried before the directory itself.
//
// Thread-safety: plain functions; LoaderContext is a value.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <facts/loader_facts.hpp>
#include <probe/loader/elf_info.hpp>
#include <probe/loader/ld_cache.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe::loader {

struct LoaderContext {
  std::vector<std::string> ld_library_path;  // LD_LIBRARY_PATH split on ':' and ';' ("" = working directory)
  std::optional<LdCache> cache;              // nullopt: no usable /etc/ld.so.cache (step 4 is skipped)
  std::vector<std::string> default_dirs;     // glibc's system search path, in order
  std::string lib = "lib";                   // what $LIB expands to ("lib/x86_64-linux-gnu" on Debian)
  std::string platform = "x86_64";           // what $PLATFORM expands to (AT_PLATFORM)
  std::vector<std::string> hwcaps_subdirs;   // "x86-64-v3", ...: glibc-hwcaps/NAME tried first, in order
  std::optional<ElfInfo> main_program;       // whose DT_RPATH step 1 ends with (the executable)
  std::string interpreter;                   // the ld.so in use: its soname counts as loaded from the start
  std::string cwd = "/";                     // for relative LD_LIBRARY_PATH entries and names with '/'
};

// The context of the machine behind `fs`: its /etc/ld.so.cache, LD_LIBRARY_PATH from `environment`
// ("A=B" pairs are not parsed here: pass the value), and the default directories and $LIB of the
// glibc layout found (multiarch /lib/x86_64-linux-gnu when it exists, else /lib64 for 64-bit).
LoaderContext make_loader_context(const sys::FileSystem& fs, std::string_view ld_library_path,
                                  std::uint16_t machine = 62 /* EM_X86_64 */);

// Expands $ORIGIN, $LIB and $PLATFORM in one RPATH/RUNPATH entry; `origin` is the directory of the
// object the entry belongs to. Unknown $NAMEs are left as they are (glibc then drops the entry).
std::string expand_dynamic_string(std::string_view entry, std::string_view origin, const LoaderContext& ctx);

// Where ld.so would find `soname` when `requester` asks for it. `loaders` are the objects that
// loaded `requester`, nearest first (their DT_RPATH takes part in step 1); empty for a direct
// dependency of the root.
facts::Resolution resolve_soname(const sys::FileSystem& fs, std::string_view soname, const ElfInfo& requester,
                                 const LoaderContext& ctx, const std::vector<const ElfInfo*>& loaders = {});

// The transitive closure of `root`'s DT_NEEDED, breadth first as ld.so loads them (_dl_map_object_deps):
// one Resolution per (requester, soname) edge, in load order; a soname already loaded is reported
// with rule already_loaded and not searched again. At most `max_objects` objects are read.
std::vector<facts::Resolution> resolve_needed_tree(const sys::FileSystem& fs, const ElfInfo& root,
                                                   const LoaderContext& ctx, std::size_t max_objects = 2000);

}  // namespace gpudoctor::probe::loader
