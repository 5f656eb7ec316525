#include <fleet/join.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include <fleet/hostlist.hpp>
#include <util/text.hpp>

namespace gpudoctor::fleet {
namespace {

using facts::Layer;
using facts::Severity;

constexpr facts::FindingInfo k_infos[] = {
    {"fleet.node_unreachable", Layer::environment, Severity::error, "A node gave no report",
     "`fleet --slurm` got no report from a node: it is down, drained or not responding, its check timed out "
     "(the per-node deadline), crashed, or printed something that is not a report; srun's and sinfo's words "
     "are the evidence",
     "Look at the node (`scontrol show node NAME`, `sinfo -R`); rerun `gpudoctor check` on it by hand to see "
     "what stops it."},
    {"fleet.failing_nodes", Layer::environment, Severity::error, "Some nodes fail a check",
     "At least one node's report has an error finding; nodes with the same findings are grouped",
     "Fix each group's root cause (its first finding), or drain the nodes until then "
     "(`gpudoctor check --slurm-health` does both the drain and the resume)."},
    {"fleet.driver_skew", Layer::driver, Severity::warning, "Nodes run different NVIDIA drivers",
     "The loaded kernel module's version (or NVML's) or the CUDA driver API it provides differs between nodes",
     "Install the same driver on every node and reboot the odd ones (or reload the module); a multi-node job "
     "needs one CUDA driver API everywhere."},
    {"fleet.gpu_model_mix", Layer::environment, Severity::warning, "Nodes have different GPU models",
     "The GPU models differ between nodes (a partition of mixed hardware, or a node that lost a card's driver)",
     "Put nodes with different GPUs into different partitions or give them a feature (`Feature=h100`), so that "
     "one job's ranks land on one kind."},
    {"fleet.nodes_without_gpu", Layer::environment, Severity::info, "Some nodes show no GPU at all",
     "Some nodes' reports list no NVIDIA GPU while others do: CPU-only nodes (login, service) in the same set, or "
     "nodes whose driver sees no GPU any more; they are left out of the GPU model comparison",
     "If these nodes should have GPUs, look at their own findings (`gpudoctor check` on the node, `nvidia-smi`, "
     "`dmesg | grep -i nvrm`); if they are CPU-only, leave them out of GPU partitions."},
    {"fleet.gpu_count_mismatch", Layer::environment, Severity::warning,
     "Nodes with the same GPUs have a different number of them",
     "Nodes whose GPU models are the same report different GPU counts: a GPU that fell off the bus, failed, or "
     "is hidden from the driver",
     "Look at the node with fewer GPUs (`nvidia-smi`, `dmesg | grep -i xid`); drain it until the GPU is back."},
    {"fleet.framework_skew", Layer::framework, Severity::warning,
     "The same Python environment holds different framework builds on different nodes",
     "For one interpreter path, the installed framework (torch, tensorflow, jax, ...) differs between nodes: its "
     "version, or the CUDA it was built for, or a CPU-only build on some nodes",
     "Install the environment once on shared storage, or with the same lock file on every node; a CPU-only wheel "
     "on one node leaves that rank off the GPU."},
    {"fleet.kernel_skew", Layer::environment, Severity::info, "Nodes run different Linux kernels",
     "The running kernel release differs between nodes", "Boot every node into the same kernel (the NVIDIA module "
     "must be built for each kernel that runs)."},
    {"fleet.report_invalid", Layer::environment, Severity::warning, "A report could not be read",
     "A report given to `fleet` is not a `gpudoctor check --json` report: truncated, not JSON, another command's, "
     "or a newer schema than this gpudoctor reads; the rest of the fleet is joined without it",
     "Collect the report again with `gpudoctor check --json`, from a gpudoctor no newer than the one that joins."},
    {"fleet.duplicate_report", Layer::environment, Severity::warning, "Two reports name the same node",
     "Two reports carry the same host name; the newer one is kept",
     "Collect one report per node, or give the nodes distinct host names."},
    {"fleet.tool_version_mix", Layer::environment, Severity::info, "The reports come from different gpudoctor versions",
     "The reports' tool_version differs: a check added in a newer version finds nothing on nodes with an older one",
     "Run the same gpudoctor on every node."},
};

const facts::FindingInfo& info(std::string_view id) {
  for (const auto& i : k_infos)
    if (i.id == id) return i;
  return k_infos[0];
}

facts::Finding make(std::string_view id, std::string message) {
  const auto& i = info(id);
  facts::Finding f;
  f.id = std::string(i.id);
  f.layer = i.layer;
  f.severity = i.severity;
  f.message = std::move(message);
  f.fix = std::string(i.fix);
  f.docs = facts::docs_anchor(i.id);
  return f;
}

// Long lists of evidence are cut: a fleet of 10,000 nodes is summarised, not printed.
constexpr std::size_t k_max_evidence = 20;

void add_evidence(facts::Finding& f, std::vector<std::string> lines) {
  std::size_t n = lines.size();
  if (n > k_max_evidence) {
    lines.resize(k_max_evidence);
    lines.push_back(fmt::format("... and {} more", n - k_max_evidence));
  }
  for (auto& l : lines) f.evidence.push_back(std::move(l));
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// One attribute compared across nodes.
struct Attribute {
  std::string name;
  std::string verb;  // "run", "have"
  std::map<std::string, std::vector<std::string>> nodes_by_value;
};

SkewTable table_of(const Attribute& a) {
  SkewTable t;
  t.attribute = a.name;
  for (const auto& [value, nodes] : a.nodes_by_value) {
    t.values.push_back({value, nodes, compress_hostlist(nodes)});
  }
  std::stable_sort(t.values.begin(), t.values.end(), [](const SkewValue& x, const SkewValue& y) {
    bool xu = x.value == "unknown";
    bool yu = y.value == "unknown";
    if (xu != yu) return yu;  // unknown last
    return x.nodes.size() > y.nodes.size();
  });
  return t;
}

// "gpu017: driver 535.104.05 while 63 nodes run 550.54.14", one line per minority value.
void odd_ones(const SkewTable& t, std::string_view verb, std::vector<std::string>& out) {
  if (!t.skewed()) return;
  const SkewValue& major = t.values[0];
  for (std::size_t i = 1; i < t.values.size(); ++i) {
    const SkewValue& v = t.values[i];
    if (v.value == "unknown") continue;
    // "while 1 node runs", "while 63 nodes run"
    std::string verb_form = major.nodes.size() != 1 ? std::string(verb) : verb == "have" ? "has" : std::string(verb) + "s";
    out.push_back(fmt::format("{}: {} {} while {} {} {}", util::printable(v.hostlist), t.attribute, util::printable(v.value),
                              plural(major.nodes.size(), "node", "nodes"), verb_form, util::printable(major.value)));
  }
}

std::vector<std::string> table_evidence(const SkewTable& t) {
  std::vector<std::string> lines;
  for (const auto& v : t.values) lines.push_back(fmt::format("{} {}: {} ({})", t.attribute, v.value, v.hostlist, v.nodes.size()));
  return lines;
}

std::string model_set(const std::vector<std::string>& models) {
  if (models.empty()) return "no GPU";
  std::vector<std::string> u = models;
  std::sort(u.begin(), u.end());
  u.erase(std::unique(u.begin(), u.end()), u.end());
  std::string s;
  for (const auto& m : u) s += (s.empty() ? "" : " + ") + m;
  return s;
}

std::string value_or_unknown(const std::string& s) { return s.empty() ? "unknown" : s; }

}  // namespace

bool SkewTable::skewed() const {
  int known = 0;
  for (const auto& v : values)
    if (v.value != "unknown") ++known;
  return known > 1;
}

std::vector<facts::FindingInfo> fleet_finding_infos() { return {std::begin(k_infos), std::end(k_infos)}; }

Fleet join_fleet(FleetInput input) {
  Fleet fleet;

  // One report per node: the newest wins (ISO 8601 times compare as text).
  std::unordered_map<std::string, std::size_t> by_node;
  std::vector<NodeReport> reports;
  reports.reserve(input.reports.size());
  std::vector<std::string> duplicates;
  for (auto& r : input.reports) {
    if (r.node.empty()) r.node = r.host.empty() ? r.source : r.host;
    auto [it, fresh] = by_node.try_emplace(r.node, reports.size());
    if (fresh) {
      reports.push_back(std::move(r));
      continue;
    }
    NodeReport& kept = reports[it->second];
    duplicates.push_back(fmt::format("{}: {} and {}; kept the one from {}", util::printable(r.node),
                                     util::printable(kept.source), util::printable(r.source),
                                     util::printable(std::max(kept.time, r.time))));
    if (r.time > kept.time) kept = std::move(r);
  }
  std::sort(reports.begin(), reports.end(), [](const NodeReport& a, const NodeReport& b) { return a.node < b.node; });

  // Unreachable nodes that did report after all (a duplicate entry) are not unreachable.
  std::vector<NodeProblem> unreachable;
  std::vector<NodeProblem> invalid;
  for (auto& p : input.problems) {
    if (p.kind == NodeProblem::Kind::unreachable) {
      if (!p.node.empty() && by_node.count(p.node)) continue;
      unreachable.push_back(p);
    } else {
      invalid.push_back(p);
    }
    fleet.problems.push_back(std::move(p));
  }

  // Groups by the set of error and warning ids.
  std::unordered_map<std::string, std::size_t> group_of;
  for (const auto& r : reports) {
    std::vector<const NodeFinding*> kept;
    for (const auto& f : r.findings)
      if (f.severity != Severity::info) kept.push_back(&f);
    std::vector<std::string> ids;
    for (const auto* f : kept) ids.push_back(f->id);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::string key = fmt::format("{}", fmt::join(ids, ","));
    auto [it, fresh] = group_of.try_emplace(key, fleet.groups.size());
    if (fresh) {
      NodeGroup g;
      for (const auto* f : kept) {
        g.findings.push_back(*f);
        if (f->severity == Severity::error) g.failing = true;
      }
      // Root causes (findings no other finding explains) first, keeping the report's order otherwise.
      std::stable_sort(g.findings.begin(), g.findings.end(), [](const NodeFinding& a, const NodeFinding& b) {
        return std::pair(facts::rank(a.severity), a.explained) < std::pair(facts::rank(b.severity), b.explained);
      });
      fleet.groups.push_back(std::move(g));
    }
    fleet.groups[it->second].nodes.push_back(r.node);
  }
  for (auto& g : fleet.groups) g.hostlist = compress_hostlist(g.nodes);
  std::sort(fleet.groups.begin(), fleet.groups.end(), [](const NodeGroup& a, const NodeGroup& b) {
    if (a.failing != b.failing) return a.failing;
    bool ah = a.findings.empty();
    bool bh = b.findings.empty();
    if (ah != bh) return bh;
    if (a.nodes.size() != b.nodes.size()) return a.nodes.size() < b.nodes.size();
    return a.hostlist < b.hostlist;
  });

  fleet.unreachable = static_cast<int>(unreachable.size());
  fleet.nodes = static_cast<int>(reports.size()) + fleet.unreachable;
  std::vector<std::string> failing_nodes;
  std::vector<std::string> failing_evidence;
  for (const auto& g : fleet.groups) {
    if (!g.failing) {
      fleet.healthy += static_cast<int>(g.nodes.size());
      continue;
    }
    fleet.failing += static_cast<int>(g.nodes.size());
    failing_nodes.insert(failing_nodes.end(), g.nodes.begin(), g.nodes.end());
    const NodeFinding& cause = g.findings.front();
    failing_evidence.push_back(fmt::format("{}: {} ({})", g.hostlist, cause.id, util::printable(cause.message)));
  }

  // Skew tables.
  Attribute driver{"driver", "run", {}};
  Attribute cuda{"CUDA driver API", "provide", {}};
  Attribute model{"GPU model", "have", {}};
  Attribute kernel{"kernel", "run", {}};
  Attribute tool{"gpudoctor", "run", {}};
  std::vector<std::string> without_gpu;
  std::map<std::string, Attribute> count_by_model;  // GPU count among nodes with one model set
  std::map<std::pair<std::string, std::string>, Attribute> builds;  // (framework, interpreter)
  for (const auto& r : reports) {
    driver.nodes_by_value[value_or_unknown(r.driver_version)].push_back(r.node);
    cuda.nodes_by_value[value_or_unknown(r.cuda_driver_api)].push_back(r.node);
    std::string models = model_set(r.gpu_models);
    // A node without GPUs is not another GPU model: it is named on its own (fleet.nodes_without_gpu).
    if (r.gpu_models.empty()) without_gpu.push_back(r.node);
    else model.nodes_by_value[models].push_back(r.node);
    if (!r.gpu_models.empty()) {
      auto& c = count_by_model[models];
      c.name = "GPU count (" + models + ")";
      c.verb = "have";
      c.nodes_by_value[std::to_string(r.gpu_models.size())].push_back(r.node);
    }
    kernel.nodes_by_value[value_or_unknown(r.kernel)].push_back(r.node);
    tool.nodes_by_value[value_or_unknown(r.tool_version)].push_back(r.node);
    std::map<std::pair<std::string, std::string>, std::string> seen;  // a node lists each build once
    for (const auto& b : r.builds) {
      std::string v = value_or_unknown(b.version);
      if (!b.kind.empty()) v += b.kind == "cuda" && !b.cuda.empty() ? " (CUDA " + b.cuda + ")" : " (" + b.kind + ")";
      seen[{b.framework, b.interpreter}] = v;
    }
    for (const auto& [key, v] : seen) {
      auto& a = builds[key];
      a.name = key.first + " in " + key.second;
      a.verb = "have";
      a.nodes_by_value[v].push_back(r.node);
    }
  }

  auto skew_finding = [&](std::string_view id, const SkewTable& t, std::string_view verb) {
    fleet.skew.push_back(t);
    if (!t.skewed()) return;
    std::vector<std::string> odd;
    odd_ones(t, verb, odd);
    fleet.odd_ones_out.insert(fleet.odd_ones_out.end(), odd.begin(), odd.end());
    facts::Finding f = make(id, odd.empty() ? fmt::format("Nodes differ in {}.", t.attribute)
                                            : odd.front() + (odd.size() > 1 ? fmt::format(" (and {} more)", odd.size() - 1) : ""));
    add_evidence(f, table_evidence(t));
    fleet.findings.push_back(std::move(f));
  };

  if (!unreachable.empty()) {
    std::vector<std::string> names;
    std::vector<std::string> lines;
    for (const auto& p : unreachable) {
      if (!p.node.empty()) names.push_back(p.node);
      lines.push_back(fmt::format("{}: {}", util::printable(p.node.empty() ? p.source : p.node), util::printable(p.reason)));
    }
    auto f = make("fleet.node_unreachable", fmt::format("{} gave no report: {}.", plural(unreachable.size(), "node", "nodes"),
                                                        util::printable(compress_hostlist(names))));
    add_evidence(f, lines);
    fleet.findings.push_back(std::move(f));
  }
  if (!failing_nodes.empty()) {
    auto f = make("fleet.failing_nodes",
                  fmt::format("{} of {} fail a check: {}.", failing_nodes.size(), plural(reports.size() + unreachable.size(), "node", "nodes"),
                              util::printable(compress_hostlist(failing_nodes))));
    add_evidence(f, failing_evidence);
    fleet.findings.push_back(std::move(f));
  }
  // A driver table is skewed by version or by CUDA API; one finding says both.
  SkewTable driver_table = table_of(driver);
  SkewTable cuda_table = table_of(cuda);
  if (driver_table.skewed() || cuda_table.skewed()) {
    skew_finding("fleet.driver_skew", driver_table.skewed() ? driver_table : cuda_table, "run");
    fleet.skew.push_back(driver_table.skewed() ? cuda_table : driver_table);
    if (driver_table.skewed() && cuda_table.skewed()) add_evidence(fleet.findings.back(), table_evidence(cuda_table));
  } else {
    fleet.skew.push_back(driver_table);
    fleet.skew.push_back(cuda_table);
  }
  skew_finding("fleet.gpu_model_mix", table_of(model), "have");
  if (!without_gpu.empty() && !model.nodes_by_value.empty()) {
    std::size_t with_gpu = reports.size() - without_gpu.size();
    auto f = make("fleet.nodes_without_gpu",
                  fmt::format("{} no GPU while {} {}: {}.", plural(without_gpu.size(), "node shows", "nodes show"),
                              plural(with_gpu, "node has", "nodes have"), "GPUs", util::printable(compress_hostlist(without_gpu))));
    add_evidence(f, table_evidence(table_of(model)));
    fleet.findings.push_back(std::move(f));
  }
  for (const auto& [models, a] : count_by_model) skew_finding("fleet.gpu_count_mismatch", table_of(a), "have");
  for (const auto& [key, a] : builds) skew_finding("fleet.framework_skew", table_of(a), "have");
  skew_finding("fleet.kernel_skew", table_of(kernel), "run");
  SkewTable tool_table = table_of(tool);
  if (tool_table.skewed()) {
    auto f = make("fleet.tool_version_mix", fmt::format("The reports come from {} gpudoctor versions.", tool_table.values.size()));
    add_evidence(f, table_evidence(tool_table));
    fleet.findings.push_back(std::move(f));
  }
  if (!invalid.empty()) {
    std::vector<std::string> lines;
    for (const auto& p : invalid) lines.push_back(util::printable(p.reason));
    auto f = make("fleet.report_invalid", fmt::format("{} could not be read; the fleet was joined without {}.",
                                                      plural(invalid.size(), "report", "reports"),
                                                      invalid.size() == 1 ? "it" : "them"));
    add_evidence(f, lines);
    fleet.findings.push_back(std::move(f));
  }
  if (!duplicates.empty()) {
    auto f = make("fleet.duplicate_report", fmt::format("{} reported twice.", plural(duplicates.size(), "node was", "nodes were")));
    add_evidence(f, duplicates);
    fleet.findings.push_back(std::move(f));
  }
  facts::sort_root_cause_first(fleet.findings);
  return fleet;
}

}  // namespace gpudoctor::fleet
