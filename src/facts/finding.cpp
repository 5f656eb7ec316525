#include <facts/finding.hpp>

#include <algorithm>

namespace gpudoctor::facts {

const char* to_string(Layer layer) {
  switch (layer) {
    case Layer::environment: return "environment";
    case Layer::driver: return "driver";
    case Layer::framework: return "framework";
    case Layer::code: return "code";
    case Layer::run: return "run";
  }
  return "environment";
}

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "error";
}

int rank(Layer layer) { return static_cast<int>(layer); }
int rank(Severity severity) { return static_cast<int>(severity); }

std::string docs_anchor(std::string_view id) {
  // docs/checks.md carries an explicit <a id="ID"> before each entry.
  return "docs/checks.md#" + std::string(id);
}

void sort_root_cause_first(std::vector<Finding>& findings) {
  // A finding another one explains goes after its cause, whatever their layers.
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (rank(a.severity) != rank(b.severity)) return rank(a.severity) < rank(b.severity);
    if (a.explained_by.empty() != b.explained_by.empty()) return a.explained_by.empty();
    return rank(a.layer) < rank(b.layer);
  });
}

}  // namespace gpudoctor::facts
