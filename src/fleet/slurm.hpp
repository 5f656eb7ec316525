// Slurm, as gpudoctor meets it: `fleet --slurm` gathers one `check --json` per node with a single
// srun (one task per node, a deadline each), and `check --slurm-health` drains a node with an error
// finding and resumes it once healthy, in the manner of LBNL NHC: it resumes only nodes whose drain
// reason it wrote itself ("gpudoctor: ..."), and never touches a node drained by someone else.
// Slurm's own commands (sinfo, srun, scontrol; SLURM_CONF as they read it) are run as child processes
// with deadlines; their words are kept as evidence. gpudoctor grows no cluster runner of its own.
// Thread-safety: each call is independent.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <facts/finding.hpp>
#include <fleet/join.hpp>
#include <sys/error.hpp>

namespace gpudoctor::fleet {

// The drain reasons gpudoctor writes start with this; only those nodes are ever resumed.
inline constexpr std::string_view k_drain_prefix = "gpudoctor:";

struct SlurmGatherOptions {
  std::string partition;                 // "" for every partition
  std::string nodes;                     // a hostlist expression, "" for every node
  std::vector<std::string> check_args;   // passed to `gpudoctor check --json` on each node
  std::string gpudoctor;                 // the program each node runs; "" for this executable
  std::chrono::seconds deadline{120};    // per node; all nodes run at once
};

struct SlurmGather {
  FleetInput input;
  std::string description;  // "srun on 64 nodes of partition gpu"
};

// REQUIRES: sinfo and srun on PATH. An Error only when Slurm could not be asked at all (no sinfo,
// sinfo failed, no node matched); a node that gives no report is a NodeProblem.
sys::Expected<SlurmGather> gather_with_srun(const SlurmGatherOptions& options);

// sinfo's long state ("idle", "drained", "mixed*") and whether a job step can start there now.
struct SlurmNode {
  std::string name;
  std::string state;
  std::string reason;  // "none" when Slurm has none
};
bool schedulable(const SlurmNode& node);
// Parses `sinfo -h -N -o %N|%T|%E` output; a node listed in several partitions appears once.
std::vector<SlurmNode> parse_sinfo(std::string_view text);

// What `check --slurm-health` does to its node.
enum class HealthAction {
  none,          // healthy and not drained by gpudoctor, or already drained by it for this reason
  drain,         // an error finding: drain with a gpudoctor reason
  update_reason, // drained by gpudoctor for another reason: say the current one
  resume,        // drained by gpudoctor and healthy again
  leave_alone,   // drained or down by someone else: never touched
};

struct HealthPlan {
  HealthAction action = HealthAction::none;
  std::string node;
  std::string reason;                  // the drain reason written, for drain and update_reason
  std::vector<std::string> scontrol;   // the command that carries it out; empty when nothing is done
  std::string explanation;             // one line for the log
};

// Pure: decides from the node's Slurm state and this check's findings. Warnings never drain.
HealthPlan plan_health(const SlurmNode& node, const std::vector<facts::Finding>& findings);

// Reads the node's state with sinfo.
sys::Expected<SlurmNode> slurm_node_state(const std::string& node, std::chrono::milliseconds timeout);

// Runs the plan's scontrol command. An Error carries scontrol's words.
sys::Expected<bool> apply_health_plan(const HealthPlan& plan, std::chrono::milliseconds timeout);

// This node's Slurm name: SLURMD_NODENAME (set for health checks, prologs and job steps), else the
// short host name.
std::string this_slurm_node();

}  // namespace gpudoctor::fleet
