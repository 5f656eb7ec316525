#include <fleet/fleet_prometheus.hpp>

#include <map>
#include <tuple>

#include <render/prometheus.hpp>

namespace gpudoctor::fleet {

std::string fleet_metrics(const Fleet& fleet, double unix_time) {
  render::PrometheusWriter w;
  w.family("gpudoctor_fleet_nodes", "gauge", "Nodes of the last fleet join, by state.");
  w.sample("gpudoctor_fleet_nodes", {{"state", "healthy"}}, fleet.healthy);
  w.sample("gpudoctor_fleet_nodes", {{"state", "failing"}}, fleet.failing);
  w.sample("gpudoctor_fleet_nodes", {{"state", "unreachable"}}, fleet.unreachable);

  w.family("gpudoctor_fleet_node_ok", "gauge", "1 when the node's check found no error, 0 when it did or gave no report.");
  for (const auto& g : fleet.groups)
    for (const auto& n : g.nodes) w.sample("gpudoctor_fleet_node_ok", {{"node", n}}, g.failing ? 0 : 1);
  for (const auto& p : fleet.problems)
    if (p.kind == NodeProblem::Kind::unreachable && !p.node.empty()) w.sample("gpudoctor_fleet_node_ok", {{"node", p.node}}, 0);

  w.family("gpudoctor_fleet_node_finding", "gauge", "Errors and warnings of each node's check, value 1.");
  for (const auto& g : fleet.groups) {
    // A node lists each id once, however many instances its report had.
    std::map<std::tuple<std::string, std::string, std::string>, bool> ids;
    for (const auto& f : g.findings) ids[{f.id, facts::to_string(f.severity), facts::to_string(f.layer)}] = true;
    for (const auto& n : g.nodes)
      for (const auto& [key, _] : ids)
        w.sample("gpudoctor_fleet_node_finding",
                 {{"node", n}, {"id", std::get<0>(key)}, {"severity", std::get<1>(key)}, {"layer", std::get<2>(key)}}, 1);
  }

  std::map<std::tuple<std::string, std::string, std::string>, int> count;
  for (const auto& f : fleet.findings) ++count[{f.id, facts::to_string(f.severity), facts::to_string(f.layer)}];
  w.family("gpudoctor_fleet_finding", "gauge", "Fleet-level findings (fleet.*) of the last join, by id; the value is the number of instances.");
  for (const auto& [key, n] : count)
    w.sample("gpudoctor_fleet_finding", {{"id", std::get<0>(key)}, {"severity", std::get<1>(key)}, {"layer", std::get<2>(key)}}, n);

  w.family("gpudoctor_fleet_distinct_values", "gauge", "How many different values nodes report for each compared attribute.");
  std::map<std::string, int> seen;  // framework tables repeat per interpreter; the attribute names them apart
  for (const auto& t : fleet.skew) {
    if (t.values.empty() || seen.count(t.attribute)) continue;
    int known = 0;
    for (const auto& v : t.values) known += v.value != "unknown";
    seen[t.attribute] = known;
    w.sample("gpudoctor_fleet_distinct_values", {{"attribute", t.attribute}}, known);
  }
  w.family("gpudoctor_fleet_last_run_timestamp_seconds", "gauge", "Unix time of the last fleet join.");
  w.sample("gpudoctor_fleet_last_run_timestamp_seconds", {}, unix_time);
  return w.text();
}

}  // namespace gpudoctor::fleet
