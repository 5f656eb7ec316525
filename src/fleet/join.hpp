// The fleet join: many nodes' NodeReports in, one picture out. Nodes are grouped by the findings that
// matter (errors and warnings), each group named in Slurm hostlist syntax; the facts that must agree
// across a cluster (driver, CUDA driver API, GPU model and count, kernel, framework builds) are laid
// out as skew tables with the odd nodes out named first; and the fleet's own findings (fleet.*) say
// what an admin should do first. Pure function of its input; thread-safe.
#pragma once

#include <string>
#include <vector>

#include <facts/finding.hpp>
#include <fleet/node_report.hpp>

namespace gpudoctor::fleet {

// A node or a report the fleet could not read.
struct NodeProblem {
  enum class Kind {
    unreachable,  // a node that gave no report: down, drained, timed out, crashed
    invalid,      // a report that is not one: truncated, garbage, another schema
  };
  Kind kind = Kind::unreachable;
  std::string node;    // "" when unknown (a report file that names no host)
  std::string source;  // the file, "srun", "stdin"
  std::string reason;  // srun's words, the parse error
};

struct FleetInput {
  std::vector<NodeReport> reports;
  std::vector<NodeProblem> problems;
};

struct NodeGroup {
  std::vector<std::string> nodes;  // sorted
  std::string hostlist;            // "gpu[001-004,007]"
  std::vector<NodeFinding> findings;  // the errors and warnings they share, root cause first
  bool failing = false;            // at least one error
};

struct SkewValue {
  std::string value;  // "550.54.14"; "unknown" when a report did not say
  std::vector<std::string> nodes;
  std::string hostlist;
};

struct SkewTable {
  std::string attribute;  // "driver", "CUDA driver API", "GPU model", "GPU count", "kernel", "torch (python)"
  std::vector<SkewValue> values;  // most nodes first
  bool skewed() const;            // more than one known value
};

struct Fleet {
  int nodes = 0;          // reports joined plus unreachable nodes
  int healthy = 0;        // no error finding
  int failing = 0;
  int unreachable = 0;
  std::vector<facts::Finding> findings;  // fleet.* findings, root cause first
  std::vector<std::string> odd_ones_out; // "gpu017: driver 535.104.05 while 63 nodes run 550.54.14"
  std::vector<NodeGroup> groups;         // failing first, then smaller groups first
  std::vector<SkewTable> skew;
  std::vector<NodeProblem> problems;
};

Fleet join_fleet(FleetInput input);

// The catalogue entries of every fleet.* id (docs/checks.md).
std::vector<facts::FindingInfo> fleet_finding_infos();

}  // namespace gpudoctor::fleet
