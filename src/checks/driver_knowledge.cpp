#include <checks/driver_knowledge.hpp>

#include <data/tsv.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

namespace gpudoctor::checks {
namespace {

std::optional<std::vector<int>> version(std::string_view s) {
  auto v = util::parse_version(util::trim(s));
  if (!v || v->empty()) return std::nullopt;
  return v;
}

bool at_least(const std::vector<int>& have, std::string_view need) {
  auto n = version(need);
  return n && util::compare_versions(have, *n) >= 0;
}

// The table row for a runtime: the same major.minor, else the closest lower minor of that major
// (12.7 was never released; a 12.7 runtime needs what 12.6 needed at least).
std::optional<std::size_t> requirement_row(const std::vector<int>& runtime) {
  const auto& t = data::table("cuda_driver_versions.tsv");
  std::optional<std::size_t> best;
  std::vector<int> best_v;
  for (std::size_t r = 0; r < t.size(); ++r) {
    auto v = version(t.at(r, "cuda"));
    if (!v || (*v)[0] != runtime[0]) continue;
    int minor = runtime.size() > 1 ? runtime[1] : 0;
    if (v->size() > 1 && (*v)[1] > minor) continue;
    if (!best || util::compare_versions(*v, best_v) > 0) {
      best = r;
      best_v = *v;
    }
  }
  return best;
}

std::optional<ErrorMeaning> error_row(const data::Table& t, std::optional<std::string_view> api, int code) {
  for (std::size_t r = 0; r < t.size(); ++r) {
    if (api && t.at(r, "api") != *api) continue;
    if (util::parse_int(t.at(r, "code")) != code) continue;
    ErrorMeaning m;
    m.code = code;
    m.name = t.at(r, "name");
    m.meaning = t.at(r, "meaning");
    m.cause = t.at(r, "cause") == "-" ? "" : t.at(r, "cause");
    m.source = t.at(r, "source");
    return m;
  }
  return std::nullopt;
}

std::optional<ComputeCapability> parse_cc(std::string_view s) {
  auto v = version(s);
  if (!v || v->size() != 2) return std::nullopt;
  return ComputeCapability{(*v)[0], (*v)[1]};
}

OpenModule parse_open_module(std::string_view s) {
  if (s == "required") return OpenModule::required;
  if (s == "unsupported") return OpenModule::unsupported;
  return OpenModule::supported;
}

}  // namespace

std::string cuda_version_string(int encoded) {
  // cuda.h: CUDA_VERSION is 1000 * major + 10 * minor.
  return fmt::format("{}.{}", encoded / 1000, (encoded % 1000) / 10);
}

const char* to_string(DriverSupport s) {
  switch (s) {
    case DriverSupport::full: return "full";
    case DriverSupport::minor_compatibility: return "minor_compatibility";
    case DriverSupport::unsupported: return "unsupported";
    case DriverSupport::unknown: break;
  }
  return "unknown";
}

std::optional<DriverRequirement> driver_requirement(std::string_view cuda_runtime) {
  auto rt = version(cuda_runtime);
  if (!rt) return std::nullopt;
  auto row = requirement_row(*rt);
  if (!row) return std::nullopt;
  const auto& t = data::table("cuda_driver_versions.tsv");
  DriverRequirement req{t.at(*row, "cuda"), t.at(*row, "driver"), t.at(*row, "mvc_driver")};
  if (req.mvc_driver == "-") req.mvc_driver.clear();
  return req;
}

DriverSupport driver_support(std::string_view cuda_runtime, std::string_view driver) {
  auto d = version(driver);
  auto req = driver_requirement(cuda_runtime);
  if (!d || !req) return DriverSupport::unknown;
  if (at_least(*d, req->driver)) return DriverSupport::full;
  if (!req->mvc_driver.empty() && at_least(*d, req->mvc_driver)) return DriverSupport::minor_compatibility;
  return DriverSupport::unsupported;
}

DriverSupport driver_support_by_cuda(std::string_view cuda_runtime, int driver_cuda) {
  auto rt = version(cuda_runtime);
  if (!rt || driver_cuda <= 0) return DriverSupport::unknown;
  std::vector<int> drv = {driver_cuda / 1000, (driver_cuda % 1000) / 10};
  std::vector<int> rt2 = {(*rt)[0], rt->size() > 1 ? (*rt)[1] : 0};
  if (util::compare_versions(drv, rt2) >= 0) return DriverSupport::full;
  // Minor-version compatibility exists from CUDA 11 on (the driver is then at least the MVC floor,
  // since it reports a CUDA version of the same major).
  if (drv[0] == rt2[0] && rt2[0] >= 11) return DriverSupport::minor_compatibility;
  return DriverSupport::unsupported;
}

std::optional<int> cuda_of_driver(std::string_view driver) {
  auto d = version(driver);
  if (!d) return std::nullopt;
  const auto& t = data::table("cuda_driver_versions.tsv");
  std::optional<int> best;
  for (std::size_t r = 0; r < t.size(); ++r) {
    auto cuda = version(t.at(r, "cuda"));
    if (!cuda || cuda->size() < 2 || !at_least(*d, t.at(r, "driver"))) continue;
    int encoded = (*cuda)[0] * 1000 + (*cuda)[1] * 10;
    if (!best || encoded > *best) best = encoded;
  }
  return best;
}

bool driver_supports(std::string_view cuda_runtime, std::string_view driver) {
  auto s = driver_support(cuda_runtime, driver);
  return s == DriverSupport::full || s == DriverSupport::minor_compatibility;
}

std::optional<ErrorMeaning> cuda_error(CudaApi api, int code) {
  return error_row(data::table("cuda_errors.tsv"), api == CudaApi::driver ? "driver" : "runtime", code);
}

std::optional<ErrorMeaning> nvml_error(int code) { return error_row(data::table("nvml_errors.tsv"), std::nullopt, code); }

std::string describe_cuda_error(CudaApi api, int code) {
  auto m = cuda_error(api, code);
  if (!m) return fmt::format("{} error {} (not in gpudoctor's table)", api == CudaApi::driver ? "CUresult" : "cudaError_t", code);
  std::string s = fmt::format("{} ({}): {}", m->name, code, m->meaning);
  if (!m->cause.empty()) s += fmt::format(". Common cause: {}", m->cause);
  return s;
}

std::string describe_nvml_error(int code, std::string_view library_text) {
  auto m = nvml_error(code);
  if (!m) return fmt::format("NVML error {} \"{}\"", code, library_text);
  std::string s = fmt::format("{} ({}, \"{}\"): {}", m->name, code, library_text.empty() ? m->name : library_text, m->meaning);
  if (!m->cause.empty()) s += fmt::format(". Common cause: {}", m->cause);
  return s;
}

std::string ComputeCapability::sm() const { return fmt::format("sm_{}{}", major, minor); }
std::string ComputeCapability::dotted() const { return fmt::format("{}.{}", major, minor); }

std::optional<Architecture> architecture(ComputeCapability cc) {
  const auto& t = data::table("gpu_architectures.tsv");
  for (std::size_t r = 0; r < t.size(); ++r) {
    if (parse_cc(t.at(r, "cc")) != cc) continue;
    Architecture a;
    a.cc = cc;
    a.name = t.at(r, "arch");
    a.last_driver_branch = static_cast<int>(util::parse_int(t.at(r, "last_driver")).value_or(0));
    a.open_module = parse_open_module(t.at(r, "open_module"));
    a.cuda_first = t.at(r, "cuda_first");
    a.cuda_last = t.at(r, "cuda_last") == "-" ? "" : t.at(r, "cuda_last");
    a.source = t.at(r, "source");
    return a;
  }
  return std::nullopt;
}

bool still_driven_by(const Architecture& arch, int driver_major) {
  return arch.last_driver_branch == 0 || driver_major / 10 * 10 <= arch.last_driver_branch;
}

std::optional<ComputeCapability> cc_from_pci(std::uint32_t device_id, std::string_view pci_name) {
  const auto& devices = data::table("gpu_devices.tsv");
  std::string id = fmt::format("id:{:04x}", device_id);
  for (std::size_t r = 0; r < devices.size(); ++r) {
    const auto& match = devices.at(r, "match");
    bool hit = match == id || (match.starts_with("name:") && !pci_name.empty() &&
                               util::contains(pci_name, std::string_view(match).substr(5)));
    if (hit) {
      if (auto cc = parse_cc(devices.at(r, "cc"))) return cc;
    }
  }
  const auto& chips = data::table("gpu_chips.tsv");
  std::size_t best_len = 0;
  std::optional<ComputeCapability> best;
  for (std::size_t r = 0; r < chips.size(); ++r) {
    const auto& chip = chips.at(r, "chip");
    if (chip.size() > best_len && pci_name.starts_with(chip)) {
      best_len = chip.size();
      best = parse_cc(chips.at(r, "cc"));
    }
  }
  return best;
}

namespace {

std::string normal_product_name(std::string_view name) {
  std::string out = " ";
  for (char c : name) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (l == '-' || l == '_' || std::isspace(static_cast<unsigned char>(l))) l = ' ';
    if (l == ' ' && out.back() == ' ') continue;
    out += l;
  }
  if (out.back() != ' ') out += ' ';
  return out;
}

}  // namespace

std::optional<ProductCc> cc_from_product_name(std::string_view name) {
  const auto& t = data::table("gpu_product_cc.tsv");
  const std::string hay = normal_product_name(name);
  std::optional<ProductCc> best;
  std::size_t best_len = 0;
  for (std::size_t r = 0; r < t.size(); ++r) {
    const auto& match = t.at(r, "match");
    auto needle = normal_product_name(match);  // " gtx 1080 ti ": matched on word boundaries
    if (needle.size() <= best_len || hay.find(needle) == std::string::npos) continue;
    if (auto cc = parse_cc(t.at(r, "cc"))) {
      best = ProductCc{*cc, match};
      best_len = needle.size();
    }
  }
  return best;
}

bool product_requires_open_module(std::uint32_t device_id, std::string_view name) {
  const auto& devices = data::table("gpu_devices.tsv");
  std::string id = fmt::format("id:{:04x}", device_id);
  for (std::size_t r = 0; r < devices.size(); ++r) {
    if (devices.at(r, "open_module") != "required") continue;
    const auto& match = devices.at(r, "match");
    if (match == id) return true;
    if (match.starts_with("name:") && !name.empty() && util::contains(name, std::string_view(match).substr(5))) return true;
  }
  return false;
}

Precisions precisions(ComputeCapability cc) {
  Precisions p;
  p.fp16_tensor_cores = cc >= ComputeCapability{7, 0};
  p.tf32 = p.bf16 = cc >= ComputeCapability{8, 0};
  p.fp8 = cc >= ComputeCapability{8, 9};
  return p;
}

}  // namespace gpudoctor::checks
