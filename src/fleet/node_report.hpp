// NodeReport: what the fleet keeps of one node's `gpudoctor check --json` report — its findings and
// the few facts compared across nodes (driver, CUDA driver API, GPUs, kernel, framework builds) —
// read with a streaming (SAX) parser that never builds the report's document, so that 10,000 reports
// are joined in bounded memory. A report is untrusted input: every field is optional, unknown facts
// ({"unknown": ...}) stay empty, and text that is not a report is an Error naming why.
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <facts/finding.hpp>
#include <sys/error.hpp>

namespace gpudoctor::fleet {

// The newest report schema this fleet reads; newer reports are refused with a message.
inline constexpr int k_max_schema_version = 1;
// A check report is tens of kilobytes; anything this large is not one.
inline constexpr std::size_t k_max_report_bytes = 32u << 20;

struct NodeFinding {
  std::string id;
  facts::Severity severity = facts::Severity::info;
  facts::Layer layer = facts::Layer::environment;
  std::string message;
  std::string evidence;  // the first line of evidence
  bool explained = false;  // another finding of this report is its root cause
  bool operator==(const NodeFinding&) const = default;
};

struct FrameworkBuild {
  std::string interpreter;
  std::string framework;  // torch, tensorflow, jax, ...
  std::string version;
  std::string kind;       // cuda, rocm, cpu
  std::string cuda;       // the CUDA it was built for, "" for none
  bool operator==(const FrameworkBuild&) const = default;
};

struct NodeReport {
  std::string node;    // the name the fleet knows it by: Slurm's node name, else the report's host
  std::string source;  // where it came from: a file, "stdin", "srun task 3"
  std::string host;
  int schema_version = 0;
  std::string tool_version;
  std::string command;
  std::string time;
  std::vector<NodeFinding> findings;  // in the report's order: root cause first
  std::string driver_version;         // the loaded kernel module's, else NVML's
  std::string cuda_driver_api;        // "12.4"
  std::vector<std::string> gpu_models;  // one per GPU
  std::string kernel;
  std::vector<FrameworkBuild> builds;
};

// Reads one report. `source` names it in messages.
sys::Expected<NodeReport> parse_node_report(std::string_view json, std::string source);

// Splits a stream into top-level JSON values ({...} each), as `check --json` reports concatenated by
// `cat`, JSON lines, or a DaemonSet's log. Bytes outside a value that are not whitespace are
// reported in `garbage` (one message per run of them) and skipped.
struct JsonValues {
  std::vector<std::string_view> values;
  std::vector<std::string> garbage;
};
// `base`: the text's offset in the whole stream, for the byte ranges named in `garbage`.
JsonValues split_json_values(std::string_view text, std::size_t base = 0);

}  // namespace gpudoctor::fleet
