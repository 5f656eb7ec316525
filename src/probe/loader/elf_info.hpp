// ElfInfo: what the dynamic loader reads from an ELF object before it maps it: class, machine, type,
// and the dynamic section's DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH and DF_1_NODEFLIB.
// read_elf_info reads only the ELF and program headers and the dynamic segment (bounded reads through
// sys::FileSystem), never the whole file: a 1 GB libtorch_cuda.so costs a few kilobytes.
//
// Thread-safety: plain functions and values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <sys/error.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe::loader {

enum class ElfClass { elf32, elf64 };

struct ElfInfo {
  std::string path;  // as given to read_elf_info
  ElfClass elf_class = ElfClass::elf64;
  std::uint16_t machine = 0;  // e_machine: 62 EM_X86_64, 183 EM_AARCH64, 3 EM_386
  std::uint16_t type = 0;     // e_type: 2 ET_EXEC, 3 ET_DYN
  std::string interpreter;    // PT_INTERP ("/lib64/ld-linux-x86-64.so.2"); "" for most libraries
  std::string soname;         // DT_SONAME; "" when absent
  std::vector<std::string> needed;   // DT_NEEDED, in order
  std::vector<std::string> rpath;    // DT_RPATH split on ':', unexpanded ($ORIGIN kept)
  std::vector<std::string> runpath;  // DT_RUNPATH split on ':', unexpanded
  bool has_rpath = false;            // a DT_RPATH entry exists (possibly empty)
  bool has_runpath = false;          // a DT_RUNPATH entry exists: then every DT_RPATH is ignored
  bool nodeflib = false;             // DF_1_NODEFLIB: skip the cache's system entries and default dirs
  bool operator==(const ElfInfo&) const = default;
};

// "ELFCLASS64", "EM_X86_64" (or "machine 243"): for messages.
std::string class_name(ElfClass c);
std::string machine_name(std::uint16_t machine);

// Reads `path` (an absolute Linux path, through `fs`). Errors: not_found / permission_denied from the
// file system; invalid for a file that is not a well-formed ELF object (with what was wrong).
sys::Expected<ElfInfo> read_elf_info(const sys::FileSystem& fs, std::string_view path);

}  // namespace gpudoctor::probe::loader
