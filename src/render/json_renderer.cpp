#include <render/json_renderer.hpp>

#include <util/json_number.hpp>

namespace gpudoctor::render {

nlohmann::json finding_to_json(const facts::Finding& f) {
  nlohmann::json j = {{"id", f.id},           {"layer", facts::to_string(f.layer)},
                      {"severity", facts::to_string(f.severity)}, {"message", f.message},
                      {"evidence", f.evidence}, {"fix", f.fix}, {"docs", f.docs}};
  if (f.location) {
    j["location"] = {{"file", f.location->file}, {"line", f.location->line}, {"column", f.location->column}};
    if (!f.location->cell.empty()) j["location"]["cell"] = f.location->cell;
  }
  if (!f.explained_by.empty()) j["explained_by"] = f.explained_by;
  return j;
}

facts::Finding finding_from_json(const nlohmann::json& j) {
  facts::Finding f;
  f.id = j.at("id").get<std::string>();
  auto layer = j.value("layer", "environment");
  for (auto l : {facts::Layer::environment, facts::Layer::driver, facts::Layer::framework, facts::Layer::code,
                 facts::Layer::run}) {
    if (layer == facts::to_string(l)) f.layer = l;
  }
  auto severity = j.value("severity", "error");
  for (auto s : {facts::Severity::error, facts::Severity::warning, facts::Severity::info}) {
    if (severity == facts::to_string(s)) f.severity = s;
  }
  f.message = j.value("message", "");
  f.evidence = j.value("evidence", std::vector<std::string>{});
  f.fix = j.value("fix", "");
  f.docs = j.value("docs", "");
  f.explained_by = j.value("explained_by", std::vector<std::string>{});
  if (j.contains("location")) {
    const auto& l = j["location"];
    f.location = facts::SourceLocation{l.value("file", ""), util::json_number_or(l, "line", 0), util::json_number_or(l, "column", 0), l.value("cell", "")};
  }
  return f;
}

nlohmann::json report_to_json(const Report& report) {
  int errors = 0, warnings = 0, infos = 0;
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : report.findings) {
    findings.push_back(finding_to_json(f));
    (f.severity == facts::Severity::error ? errors : f.severity == facts::Severity::warning ? warnings : infos)++;
  }
  nlohmann::json j = {{"schema_version", k_report_schema_version},
                      {"tool", "gpudoctor"},
                      {"tool_version", GPUDOCTOR_VERSION},
                      {"command", report.command},
                      {"host", report.host},
                      {"time", report.time},
                      {"root", report.root},
                      {"summary", {{"errors", errors}, {"warnings", warnings}, {"infos", infos}}},
                      {"findings", std::move(findings)},
                      {"notes", report.notes},
                      {"outcome", report.outcome == Report::Outcome::unrecognised ? "unrecognised" : "decided"}};
  if (!report.facts.is_null()) j["facts"] = report.facts;
  return j;
}

void JsonRenderer::render(const Report& report, std::ostream& out) const {
  // Invalid UTF-8 cannot reach here (probes sanitise), but replace rather than throw if it does.
  out << report_to_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace gpudoctor::render
