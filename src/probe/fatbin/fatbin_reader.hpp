// Reads the CUDA fatbinary headers embedded in an ELF file (.nv_fatbin, __nv_relfatbin) and lists the
// entries: cubin (sm_XX) or PTX (compute_XX), compressed or not. Only the ELF section headers and the
// fatbin container and entry headers are read (bounded reads through sys::FileSystem, payloads skipped,
// never decompressed): listing a 540 MB libcublasLt.so takes a few hundred small reads.
//
// Layout (fatbinary.h as quoted by LLVM, ZLUDA and others; see fatbin_reader.cpp):
//   container: u32 magic 0xBA55ED50, u16 version 1, u16 header_size, u64 fat_size; entries follow.
//   entry:     u16 kind (1 PTX, 2 ELF), u16 version, u32 header_size, u64 payload_size, ...,
//              u32 arch at +0x1c, u64 flags at +0x28 (0x2000 / 0x8000: compressed).
//
// Thread-safety: plain functions.
#pragma once

#include <string_view>

#include <facts/fatbin_facts.hpp>
#include <sys/error.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe::fatbin {

// An ELF file without a fatbin section gives a summary with no entries (not an error). Errors:
// the file system's, or invalid for a malformed ELF file or fatbin (with what and where).
sys::Expected<facts::FatbinSummary> read_fatbin(const sys::FileSystem& fs, std::string_view path);

// Parses fatbin containers from a section's bytes (exposed for tests and the fuzzer).
sys::Expected<facts::FatbinSummary> parse_fatbin_section(std::string_view bytes);

}  // namespace gpudoctor::probe::fatbin
