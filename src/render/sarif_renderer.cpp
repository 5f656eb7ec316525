#include <render/sarif_renderer.hpp>

#include <map>

namespace gpudoctor::render {
namespace {

const char* sarif_level(facts::Severity s) {
  switch (s) {
    case facts::Severity::error: return "error";
    case facts::Severity::warning: return "warning";
    case facts::Severity::info: return "note";
  }
  return "warning";
}

}  // namespace

nlohmann::json report_to_sarif(const Report& report, std::span<const facts::FindingInfo> rules) {
  // The driver lists the rules that reported, in the order they first appear; results refer to
  // them by index (ruleIndex) as well as by id.
  std::map<std::string, std::size_t> index;
  nlohmann::json rule_list = nlohmann::json::array();
  auto rule_index = [&](const facts::Finding& f) {
    auto it = index.find(f.id);
    if (it != index.end()) return it->second;
    nlohmann::json r = {{"id", f.id}, {"helpUri", f.docs}};
    for (const auto& info : rules) {
      if (info.id != f.id) continue;
      r["shortDescription"] = {{"text", std::string(info.summary)}};
      r["fullDescription"] = {{"text", std::string(info.trigger)}};
      r["help"] = {{"text", std::string(info.fix)}};
      r["defaultConfiguration"] = {{"level", sarif_level(info.severity)}};
    }
    index[f.id] = rule_list.size();
    rule_list.push_back(std::move(r));
    return rule_list.size() - 1;
  };
  nlohmann::json results = nlohmann::json::array();
  for (const auto& f : report.findings) {
    std::string text = f.message;
    if (f.location && !f.location->cell.empty()) text = f.location->cell + ", line " + std::to_string(f.location->line) + ": " + text;
    if (!f.fix.empty()) text += " Fix: " + f.fix;
    nlohmann::json r = {{"ruleId", f.id}, {"ruleIndex", rule_index(f)}, {"level", sarif_level(f.severity)},
                        {"message", {{"text", text}}}};
    if (f.location) {
      nlohmann::json region = nlohmann::json::object();
      // In a notebook the line is the cell's: the region is the line of the .ipynb file that stores
      // it (a column there would count JSON escapes, so none is given).
      if (f.location->cell.empty()) {
        region = {{"startLine", std::max(1, f.location->line)}, {"startColumn", std::max(1, f.location->column)}};
      } else if (f.location->file_line > 0) {
        region = {{"startLine", f.location->file_line}};
      }
      nlohmann::json physical = {{"artifactLocation", {{"uri", f.location->file}}}};
      if (!region.empty()) physical["region"] = region;
      r["locations"] = nlohmann::json::array({{{"physicalLocation", physical}}});
      if (!f.location->cell.empty()) {
        r["properties"] = {{"cell", f.location->cell}, {"cellLine", f.location->line}, {"cellColumn", f.location->column}};
      }
    }
    results.push_back(std::move(r));
  }
  nlohmann::json notifications = nlohmann::json::array();
  for (const auto& n : report.notes) notifications.push_back({{"level", "note"}, {"message", {{"text", n}}}});
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs",
           nlohmann::json::array({{{"tool",
                                    {{"driver",
                                      {{"name", "gpudoctor"},
                                       {"version", GPUDOCTOR_VERSION},
                                       {"informationUri", "https://github.com/gpudoctor/gpudoctor"},
                                       {"rules", std::move(rule_list)}}}}},
                                   {"invocations", nlohmann::json::array({{{"executionSuccessful", true},
                                                                           {"toolExecutionNotifications", notifications}}})},
                                   {"results", std::move(results)}}})}};
}

void SarifRenderer::render(const Report& report, std::ostream& out) const {
  out << report_to_sarif(report, m_rules).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace gpudoctor::render
