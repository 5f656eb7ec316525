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
  // The causal chain decides the order, not the severity alone: a cause weighs as much as the worst
  // finding it explains (directly or through others), so "this container sees no GPU" (info) leads
  // the driver warning it explains. Then causes go before what they explain, then the layer.
  const std::size_t n = findings.size();
  std::vector<int> weight(n);
  for (std::size_t i = 0; i < n; ++i) weight[i] = rank(findings[i].severity);
  for (std::size_t round = 0; round < n; ++round) {  // a fixpoint; chains are short
    bool changed = false;
    for (std::size_t s = 0; s < n; ++s) {
      for (const auto& cause : findings[s].explained_by) {
        for (std::size_t c = 0; c < n; ++c) {
          if (c != s && findings[c].id == cause && weight[s] < weight[c]) {
            weight[c] = weight[s];
            changed = true;
          }
        }
      }
    }
    if (!changed) break;
  }
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (weight[a] != weight[b]) return weight[a] < weight[b];
    const auto& fa = findings[a];
    const auto& fb = findings[b];
    if (fa.explained_by.empty() != fb.explained_by.empty()) return fa.explained_by.empty();
    return rank(fa.layer) < rank(fb.layer);
  });
  std::vector<Finding> sorted;
  sorted.reserve(n);
  for (auto i : order) sorted.push_back(std::move(findings[i]));
  findings = std::move(sorted);
}

}  // namespace gpudoctor::facts
