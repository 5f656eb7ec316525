// SARIF 2.1.0 (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), the format
// code-scanning services ingest: one run of tool "gpudoctor" whose driver lists every rule that
// reported (id, short description, help URI, default level) and one result per finding with a
// physical location. Findings without a source location (machine checks) are reported without
// locations, which SARIF allows. Notebook findings point at the .ipynb file; the cell and line in
// the cell travel in the message and in the result's properties.
#pragma once

#include <span>

#include <render/report.hpp>

namespace gpudoctor::render {

class SarifRenderer final : public Renderer {
 public:
  // `rules`: the catalogue entries the run may report (for the driver's rule metadata).
  explicit SarifRenderer(std::span<const facts::FindingInfo> rules) : m_rules(rules.begin(), rules.end()) {}
  void render(const Report& report, std::ostream& out) const override;

 private:
  std::vector<facts::FindingInfo> m_rules;
};

nlohmann::json report_to_sarif(const Report& report, std::span<const facts::FindingInfo> rules);

}  // namespace gpudoctor::render
