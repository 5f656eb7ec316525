// Check: a pure function from facts to findings, with the catalogue entry (id, layer, doc) it
// reports under. No I/O, no clock, no globals: a check's test builds a Facts literal and asserts
// the findings. One check reports one id, possibly several times (once per GPU, per node, ...).
#pragma once

#include <span>
#include <string>
#include <vector>

#include <facts/facts.hpp>
#include <facts/finding.hpp>

namespace gpudoctor::checks {

using facts::Facts;
using facts::Finding;
using facts::FindingInfo;
using facts::Layer;
using facts::Severity;

// Where a check puts its findings; stamps each with the check's id, layer and default severity.
class FindingSink {
 public:
  FindingSink(const FindingInfo& info, std::vector<Finding>& out) : m_info(info), m_out(out) {}

  // `fix` empty means the catalogue's generic fix.
  Finding& emit(std::string message, std::vector<std::string> evidence, std::string fix = {});
  const FindingInfo& info() const { return m_info; }

 private:
  const FindingInfo& m_info;
  std::vector<Finding>& m_out;
};

using CheckFn = void (*)(const Facts&, FindingSink&);

struct Check {
  FindingInfo info;
  CheckFn run = nullptr;
};

// Every check, in root-cause order (environment before driver before framework ...).
std::span<const Check> all_checks();

// The checks of each layer, defined in their own files.
std::span<const Check> environment_checks();
std::span<const Check> kernel_driver_checks();
std::span<const Check> driver_checks();
std::span<const Check> framework_checks();

// Runs every check and returns the findings, root cause first. A finding that a lower-layer
// finding explains lists that finding's id in explained_by.
std::vector<Finding> run_checks(const Facts& facts);

}  // namespace gpudoctor::checks
