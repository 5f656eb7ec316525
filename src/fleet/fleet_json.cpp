#include <fleet/fleet_render.hpp>

#include <render/json_renderer.hpp>

namespace gpudoctor::fleet {

nlohmann::json fleet_to_json(const Fleet& fleet, const FleetMeta& meta) {
  using nlohmann::json;
  json findings = json::array();
  int errors = 0, warnings = 0, infos = 0;
  for (const auto& f : fleet.findings) {
    findings.push_back(render::finding_to_json(f));
    (f.severity == facts::Severity::error ? errors : f.severity == facts::Severity::warning ? warnings : infos)++;
  }
  json groups = json::array();
  for (const auto& g : fleet.groups) {
    json fs = json::array();
    for (const auto& f : g.findings)
      fs.push_back({{"id", f.id}, {"severity", facts::to_string(f.severity)}, {"layer", facts::to_string(f.layer)},
                    {"message", f.message}, {"evidence", f.evidence}});
    groups.push_back({{"hostlist", g.hostlist}, {"nodes", g.nodes}, {"count", g.nodes.size()}, {"failing", g.failing},
                      {"findings", std::move(fs)}});
  }
  json skew = json::array();
  for (const auto& t : fleet.skew) {
    json values = json::array();
    for (const auto& v : t.values) values.push_back({{"value", v.value}, {"hostlist", v.hostlist}, {"count", v.nodes.size()}});
    skew.push_back({{"attribute", t.attribute}, {"differs", t.skewed()}, {"values", std::move(values)}});
  }
  json problems = json::array();
  for (const auto& p : fleet.problems)
    problems.push_back({{"kind", p.kind == NodeProblem::Kind::unreachable ? "unreachable" : "invalid"},
                        {"node", p.node},
                        {"source", p.source},
                        {"reason", p.reason}});
  return {{"schema_version", k_fleet_schema_version},
          {"tool", "gpudoctor"},
          {"tool_version", GPUDOCTOR_VERSION},
          {"command", "fleet"},
          {"time", meta.time},
          {"source", meta.source},
          {"nodes", {{"total", fleet.nodes}, {"healthy", fleet.healthy}, {"failing", fleet.failing},
                     {"unreachable", fleet.unreachable}}},
          {"summary", {{"errors", errors}, {"warnings", warnings}, {"infos", infos}}},
          {"findings", std::move(findings)},
          {"odd_ones_out", fleet.odd_ones_out},
          {"groups", std::move(groups)},
          {"skew", std::move(skew)},
          {"problems", std::move(problems)}};
}

}  // namespace gpudoctor::fleet
