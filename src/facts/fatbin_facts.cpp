#include <facts/fatbin_facts.hpp>

#include <util/json_number.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <tuple>

namespace gpudoctor::facts {
namespace {

std::vector<std::string> names_of(const FatbinSummary& s, FatbinEntryKind kind) {
  std::set<std::pair<int, std::string>> seen;
  for (const auto& e : s.entries) {
    if (e.kind == kind) seen.emplace(e.arch, entry_name(e));
  }
  std::vector<std::string> out;
  for (const auto& [arch, name] : seen) out.push_back(name);
  return out;
}

const char* kind_name(FatbinEntryKind k) {
  switch (k) {
    case FatbinEntryKind::ptx: return "ptx";
    case FatbinEntryKind::cubin: return "cubin";
    case FatbinEntryKind::lto_ir: return "lto_ir";
    case FatbinEntryKind::other: return "other";
  }
  return "other";
}

const char* variant_name(ArchVariant v) {
  switch (v) {
    case ArchVariant::plain: return "plain";
    case ArchVariant::arch_specific: return "arch_specific";
    case ArchVariant::family_specific: return "family_specific";
  }
  return "plain";
}

}  // namespace

std::string entry_name(const FatbinEntry& e) {
  std::string prefix;
  switch (e.kind) {
    case FatbinEntryKind::ptx: prefix = "compute_"; break;
    case FatbinEntryKind::cubin: prefix = "sm_"; break;
    case FatbinEntryKind::lto_ir: prefix = "lto_"; break;
    case FatbinEntryKind::other: prefix = "kind" + std::to_string(e.raw_kind) + "_"; break;
  }
  std::string suffix = e.variant == ArchVariant::arch_specific ? "a" : e.variant == ArchVariant::family_specific ? "f" : "";
  return prefix + std::to_string(e.arch) + suffix;
}

std::vector<std::string> FatbinSummary::cubin_names() const { return names_of(*this, FatbinEntryKind::cubin); }
std::vector<std::string> FatbinSummary::ptx_names() const { return names_of(*this, FatbinEntryKind::ptx); }
bool FatbinSummary::any_compressed() const {
  return std::any_of(entries.begin(), entries.end(), [](const FatbinEntry& e) { return e.compressed; });
}

FatbinSummary distinct_entries(const FatbinSummary& s) {
  FatbinSummary out;
  out.path = s.path;
  out.sections = s.sections;
  out.containers = s.containers;
  auto key = [](const FatbinEntry& e) {
    return std::tuple(static_cast<int>(e.kind), e.raw_kind, e.arch, static_cast<int>(e.variant), e.version_major,
                      e.version_minor);
  };
  std::map<decltype(key(FatbinEntry{})), FatbinEntry> merged;
  for (const auto& e : s.entries) {
    auto [it, fresh] = merged.try_emplace(key(e), e);
    if (fresh) continue;
    it->second.payload_size += e.payload_size;
    it->second.compressed = it->second.compressed || e.compressed;
  }
  for (auto& [k, e] : merged) out.entries.push_back(e);
  return out;
}

void to_json(nlohmann::json& j, const FatbinEntry& e) {
  j = nlohmann::json{{"name", entry_name(e)},
                     {"kind", kind_name(e.kind)},
                     {"raw_kind", e.raw_kind},
                     {"arch", e.arch},
                     {"variant", variant_name(e.variant)},
                     {"version", std::to_string(e.version_major) + "." + std::to_string(e.version_minor)},
                     {"compressed", e.compressed},
                     {"payload_size", e.payload_size}};
}

void from_json(const nlohmann::json& j, FatbinEntry& e) {
  e = FatbinEntry{};
  auto kind = j.value("kind", std::string("other"));
  for (auto k : {FatbinEntryKind::ptx, FatbinEntryKind::cubin, FatbinEntryKind::lto_ir, FatbinEntryKind::other}) {
    if (kind == kind_name(k)) e.kind = k;
  }
  auto variant = j.value("variant", std::string("plain"));
  for (auto v : {ArchVariant::plain, ArchVariant::arch_specific, ArchVariant::family_specific}) {
    if (variant == variant_name(v)) e.variant = v;
  }
  e.raw_kind = util::json_number_or(j, "raw_kind", std::uint16_t{0});
  e.arch = util::json_number_or(j, "arch", 0);
  auto version = j.value("version", std::string("0.0"));
  auto dot = version.find('.');
  std::from_chars(version.data(), version.data() + std::min(dot, version.size()), e.version_major);
  if (dot != std::string::npos) std::from_chars(version.data() + dot + 1, version.data() + version.size(), e.version_minor);
  e.compressed = j.value("compressed", false);
  e.payload_size = util::json_number_or(j, "payload_size", std::uint64_t{0});
}

void to_json(nlohmann::json& j, const FatbinSummary& s) {
  j = nlohmann::json{{"path", s.path},       {"sections", s.sections},       {"containers", s.containers},
                     {"cubins", s.cubin_names()}, {"ptx", s.ptx_names()}, {"entries", s.entries}};
}

void from_json(const nlohmann::json& j, FatbinSummary& s) {
  s = FatbinSummary{};
  s.path = j.value("path", std::string());
  s.sections = j.value("sections", std::vector<std::string>{});
  s.containers = j.value("containers", std::size_t{0});
  s.entries = j.value("entries", std::vector<FatbinEntry>{});
}

}  // namespace gpudoctor::facts
