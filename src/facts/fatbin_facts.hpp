// FatbinSummary: the GPU code embedded in one ELF file (a CUDA fatbinary in .nv_fatbin or
// __nv_relfatbin): for each entry, whether it is a cubin for one architecture (sm_XX) or PTX for a
// virtual one (compute_XX), and whether its payload is compressed. Filled by probe/fatbin from the
// headers only; read by checks/kernel_support (predict_support) and the torch.arch_unsupported check.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpudoctor::facts {

// Kind codes: 1 PTX, 2 ELF cubin (fatbinary.h as quoted by ZLUDA, LLVM), 8 LTO-IR (nvcc 13.0 -dlto, observed).
enum class FatbinEntryKind { ptx, cubin, lto_ir, other };

// sm_90a / compute_100a run on exactly that compute capability; sm_100f / compute_120f on the same
// major at an equal or higher minor (CUDA 12.9+ "family-specific"); plain ones by the usual rules.
enum class ArchVariant { plain, arch_specific, family_specific };

struct FatbinEntry {
  FatbinEntryKind kind = FatbinEntryKind::other;
  std::uint16_t raw_kind = 0;  // the header's kind field, kept as read
  int arch = 0;                // 75, 80, 86, 90, 100, 120 ... (sm_/compute_ without the a/f suffix)
  ArchVariant variant = ArchVariant::plain;
  int version_major = 0;       // PTX: the PTX ISA version (9.0 from CUDA 13.0); cubin: the ELF ABI version
  int version_minor = 0;
  bool compressed = false;
  std::uint64_t payload_size = 0;  // bytes in the file (compressed size when compressed)
  bool operator==(const FatbinEntry&) const = default;
};

// "sm_90a", "compute_120f", "lto_90", "kind7_90".
std::string entry_name(const FatbinEntry& e);

struct FatbinSummary {
  std::string path;
  std::vector<std::string> sections;  // ".nv_fatbin", "__nv_relfatbin" that were read
  std::size_t containers = 0;         // fatbin containers (0xBA55ED50 headers) found
  std::vector<FatbinEntry> entries;   // in file order, duplicates kept
  // Derived, sorted by arch and unique: {"sm_80", "sm_90a"}; {"compute_90"}.
  std::vector<std::string> cubin_names() const;
  std::vector<std::string> ptx_names() const;
  bool any_compressed() const;
  bool operator==(const FatbinSummary&) const = default;
};

// The summary with one entry per distinct (kind, arch, variant, version): what a library can run, without
// the thousands of repeats a big library has (one fatbin container per translation unit). A merged
// entry's payload_size is the sum of the repeats', and it is compressed when any repeat was. Sorted by
// kind, then arch.
FatbinSummary distinct_entries(const FatbinSummary& s);

void to_json(nlohmann::json& j, const FatbinEntry& e);
void from_json(const nlohmann::json& j, FatbinEntry& e);
void to_json(nlohmann::json& j, const FatbinSummary& s);
void from_json(const nlohmann::json& j, FatbinSummary& s);

}  // namespace gpudoctor::facts
