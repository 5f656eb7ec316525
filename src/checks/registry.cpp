// The registry: every layer's checks in one table, in the order their findings are reported when
// severities tie (root cause first). docs/checks.md is generated from this table (and from the code
// rules and log signatures), and a test keeps the two in step.
#include <checks/check.hpp>

#include <algorithm>

namespace gpudoctor::checks {

Finding& FindingSink::emit(std::string message, std::vector<std::string> evidence, std::string fix) {
  Finding f;
  f.id = std::string(m_info.id);
  f.layer = m_info.layer;
  f.severity = m_info.severity;
  f.message = std::move(message);
  f.evidence = std::move(evidence);
  f.fix = fix.empty() ? std::string(m_info.fix) : std::move(fix);
  f.docs = facts::docs_anchor(m_info.id);
  m_out.push_back(std::move(f));
  return m_out.back();
}

std::span<const Check> all_checks() {
  static const std::vector<Check> k_all = [] {
    std::vector<Check> all;
    for (auto layer : {environment_checks(), kernel_driver_checks(), driver_checks(), framework_checks()}) {
      all.insert(all.end(), layer.begin(), layer.end());
    }
    return all;
  }();
  return k_all;
}

namespace {

// When both findings of a pair are present, the first is a consequence of the second: it is still
// reported (its evidence matters), but it says which finding is its root cause.
struct Explanation {
  std::string_view symptom;
  std::string_view cause;
};
constexpr Explanation k_explanations[] = {
    {"driver.module_not_loaded", "hw.nouveau_bound"},
    {"driver.module_not_loaded", "hw.vfio_bound"},
    {"container.no_gpu", "container.visible_devices_void"},
    {"container.no_compute_capability", "container.visible_devices_void"},
    {"hw.gpu_no_driver", "driver.module_not_loaded"},
    {"driver.no_driver_for_runtime", "hw.no_gpu"},
    {"driver.nvml_init_failed", "wsl.linux_driver_installed"},
    {"driver.nvml_init_failed", "wsl.no_gpu_support"},
};

void link_explanations(std::vector<Finding>& findings) {
  auto present = [&](std::string_view id) {
    return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.id == id; });
  };
  for (auto& f : findings) {
    for (const auto& e : k_explanations) {
      if (f.id == e.symptom && present(e.cause)) f.explained_by.emplace_back(e.cause);
    }
  }
}

}  // namespace

std::vector<Finding> run_checks(const Facts& facts) {
  std::vector<Finding> findings;
  for (const Check& check : all_checks()) {
    FindingSink sink(check.info, findings);
    check.run(facts, sink);
  }
  link_explanations(findings);
  facts::sort_root_cause_first(findings);
  return findings;
}

}  // namespace gpudoctor::checks
