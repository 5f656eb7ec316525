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

enum class FatbinEntryKind { ptx, cubin, other };

struct FatbinEntry {
  FatbinEntryKind kind = FatbinEntryKind::other;
  std::uint16_t raw_kind = 0;  // the header's kind field: 1 PTX, 2 ELF (cubin); others kept as read
  int arch = 0;                // 75, 80, 86, 90, 100, 120 ... (sm_/compute_ without the a/f suffix)
  bool compressed = false;
  std::uint64_t payload_size = 0;  // bytes in the file (compressed size when compressed)
  bool operator==(const FatbinEntry&) const = default;
};

struct FatbinSummary {
  std::string path;
  std::vector<std::string> sections;  // ".nv_fatbin", "__nv_relfatbin" that were read
  std::size_t containers = 0;         // fatbin containers (0xBA55ED50 headers) found
  std::vector<FatbinEntry> entries;   // in file order, duplicates kept
  // Derived, sorted and unique: "sm_80", "sm_90"; "compute_90".
  std::vector<int> cubin_archs() const;
  std::vector<int> ptx_archs() const;
  bool any_compressed() const;
  bool operator==(const FatbinSummary&) const = default;
};

void to_json(nlohmann::json& j, const FatbinEntryKind& k);
void from_json(const nlohmann::json& j, FatbinEntryKind& k);
void to_json(nlohmann::json& j, const FatbinEntry& e);
void from_json(const nlohmann::json& j, FatbinEntry& e);
void to_json(nlohmann::json& j, const FatbinSummary& s);
void from_json(const nlohmann::json& j, FatbinSummary& s);

}  // namespace gpudoctor::facts
