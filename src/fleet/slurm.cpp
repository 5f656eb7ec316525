#include <fleet/slurm.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <unistd.h>

#include <fleet/collect.hpp>
#include <fleet/hostlist.hpp>
#include <sys/subprocess.hpp>
#include <util/text.hpp>

namespace gpudoctor::fleet {
namespace {

sys::Expected<sys::ProcessResult> run(std::vector<std::string> argv, std::chrono::milliseconds timeout) {
  sys::ProcessOptions o;
  o.argv = std::move(argv);
  o.timeout = timeout;
  return sys::run_process(o);
}

constexpr std::string_view k_node_marker = "@gpudoctor-node ";

// Each task names its node first, then runs the check under coreutils' timeout, so that a node that
// hangs is killed by its own deadline and srun still returns. The arguments stay positional: nothing
// from the command line is parsed by the shell.
constexpr std::string_view k_task_script =
    "printf '@gpudoctor-node %s\\n' \"${SLURMD_NODENAME:-$(hostname -s)}\"\n"
    "bin=$1; limit=$2; shift 2\n"
    "if command -v timeout >/dev/null 2>&1; then exec timeout -k 5 \"$limit\" \"$bin\" check --json \"$@\"; fi\n"
    "exec \"$bin\" check --json \"$@\"\n";

std::string trim(std::string_view s) { return std::string(util::trim(s)); }

// The last few lines of a tool's stderr, on one line.
std::string tail_lines(std::string_view err, std::size_t n = 3) {
  std::vector<std::string> lines;
  for (auto line : util::lines(err))
    if (auto t = util::trim(line); !t.empty()) lines.emplace_back(t);
  if (lines.size() > n) lines.erase(lines.begin(), lines.end() - static_cast<long>(n));
  return util::printable(util::join(lines, "; "));
}

std::string describe_failure(const sys::ProcessResult& r) {
  if (r.timed_out) return fmt::format("no answer within {:.0f} s", r.wall_ms / 1000);
  if (r.term_signal) return "killed by " + sys::signal_name(r.term_signal);
  std::string tail = tail_lines(r.err);
  return tail.empty() ? fmt::format("exit status {}", r.exit_code) : tail;
}

// "srun: error: node3: task 2: Exited with exit code 124" -> node3 -> the line.
std::map<std::string, std::string> srun_errors_by_node(std::string_view err) {
  std::map<std::string, std::string> out;
  for (auto line : util::lines(err)) {
    std::size_t task = line.find(": task ");
    if (task == std::string_view::npos) continue;
    std::string_view head = line.substr(0, task);
    std::size_t colon = head.rfind(": ");
    std::string node = trim(colon == std::string_view::npos ? head : head.substr(colon + 2));
    if (!node.empty()) out[node] = util::printable(trim(line));
  }
  return out;
}

std::string slurm_base_state(std::string state) {
  // Long states carry flags: "idle*" (not responding), "mixed~" (powered off), "drained@" (reboot).
  while (!state.empty() && std::string_view("*~#!%$@^-+").find(state.back()) != std::string_view::npos) state.pop_back();
  std::transform(state.begin(), state.end(), state.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return state;
}

bool ours(std::string_view reason) { return reason.substr(0, k_drain_prefix.size()) == k_drain_prefix; }

bool drained(const SlurmNode& n) {
  std::string s = slurm_base_state(n.state);
  return s.find("drain") != std::string::npos;
}

bool down(const SlurmNode& n) {
  std::string s = slurm_base_state(n.state);
  return s.find("down") != std::string::npos || s.find("fail") != std::string::npos;
}

}  // namespace

std::vector<SlurmNode> parse_sinfo(std::string_view text) {
  std::vector<SlurmNode> out;
  std::set<std::string> seen;
  for (auto line : util::lines(text)) {
    std::size_t a = line.find('|');
    if (a == std::string_view::npos) continue;
    std::size_t b = line.find('|', a + 1);
    SlurmNode n;
    n.name = trim(line.substr(0, a));
    n.state = trim(line.substr(a + 1, b == std::string_view::npos ? std::string_view::npos : b - a - 1));
    n.reason = b == std::string_view::npos ? "none" : trim(line.substr(b + 1));
    if (n.name.empty() || !seen.insert(n.name).second) continue;
    out.push_back(std::move(n));
  }
  return out;
}

bool schedulable(const SlurmNode& node) {
  if (!node.state.empty() && node.state.back() == '*') return false;  // not responding
  std::string s = slurm_base_state(node.state);
  // "allocated": every CPU is in a job, so a step of a new job would wait there, and the one srun
  // for all nodes with it ("mixed" nodes have room).
  for (std::string_view bad : {"drain", "down", "fail", "maint", "reboot", "unknown", "inval", "future", "power", "planned",
                               "allocated"})
    if (s.find(bad) != std::string::npos) return false;
  return !s.empty();
}

std::string this_slurm_node() {
  if (const char* n = std::getenv("SLURMD_NODENAME"); n && *n) return n;
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  std::string h = buf;
  return h.substr(0, h.find('.'));
}

sys::Expected<SlurmGather> gather_with_srun(const SlurmGatherOptions& o) {
  auto timeout = std::chrono::milliseconds(30000);
  std::vector<std::string> sinfo = {"sinfo", "-h", "-N", "-o", "%N|%T|%E"};
  if (!o.partition.empty()) sinfo.push_back("--partition=" + o.partition);
  if (!o.nodes.empty()) sinfo.push_back("--nodes=" + o.nodes);
  auto listed = run(sinfo, timeout);
  if (!listed) return sys::Error{sys::ErrorCode::unavailable, "cannot run sinfo: " + listed.error().message};
  if (!listed->ok()) return sys::Error{sys::ErrorCode::unavailable, "sinfo failed: " + describe_failure(*listed)};
  std::vector<SlurmNode> nodes = parse_sinfo(listed->out);
  if (nodes.empty())
    return sys::Error{sys::ErrorCode::not_found,
                      fmt::format("sinfo lists no node{}{}", o.partition.empty() ? "" : " in partition " + o.partition,
                                  o.nodes.empty() ? "" : " named " + o.nodes)};

  SlurmGather g;
  std::vector<std::string> runnable;
  for (const auto& n : nodes) {
    if (schedulable(n)) {
      runnable.push_back(n.name);
    } else {
      bool busy = slurm_base_state(n.state).find("allocated") != std::string::npos;
      g.input.problems.push_back({NodeProblem::Kind::unreachable, n.name, "sinfo",
                                  fmt::format("sinfo: {}{}{}", n.state, n.reason == "none" ? "" : " (" + n.reason + ")",
                                              busy ? ": every CPU is in a job, so no check can start there now (not checked)" : "")});
    }
  }
  g.description = fmt::format("srun on {} of {} nodes{}", runnable.size(), nodes.size(),
                              o.partition.empty() ? "" : " of partition " + o.partition);
  if (runnable.empty()) return g;

  std::string bin = o.gpudoctor;
  if (bin.empty()) {
    auto self = sys::self_executable();
    if (!self) return self.error();
    bin = *self;
  }
  long secs = std::max<long>(1, static_cast<long>(o.deadline.count()));
  std::string hostlist = compress_hostlist(runnable);
  std::vector<std::string> argv = {"srun",
                                   "--job-name=gpudoctor-fleet",
                                   "--nodelist=" + hostlist,
                                   fmt::format("--nodes={}", runnable.size()),
                                   fmt::format("--ntasks={}", runnable.size()),
                                   "--ntasks-per-node=1",
                                   "--label",
                                   "--kill-on-bad-exit=0",
                                   fmt::format("--immediate={}", secs),
                                   // Slurm's own limit (minutes) backs the per-node deadline.
                                   fmt::format("--time={}", (secs + 60 + 59) / 60)};
  if (!o.partition.empty()) argv.push_back("--partition=" + o.partition);
  argv.insert(argv.end(), {"sh", "-c", std::string(k_task_script), "sh", bin, std::to_string(secs)});
  argv.insert(argv.end(), o.check_args.begin(), o.check_args.end());
  sys::ProcessOptions po;
  po.argv = argv;
  // Allocation (up to the deadline, --immediate) plus the check (the deadline) plus srun's own wind-down.
  po.timeout = std::chrono::milliseconds((2 * secs + 30) * 1000);
  po.output_limit = std::size_t(1) << 30;
  auto ran = sys::run_process(po);
  if (!ran) return sys::Error{sys::ErrorCode::unavailable, "cannot run srun: " + ran.error().message};

  auto errors = srun_errors_by_node(ran->err);
  std::set<std::string> reported;
  for (const auto& task : split_labelled_lines(ran->out)) {
    std::string_view text = task.text;
    std::string node;
    if (text.substr(0, k_node_marker.size()) == k_node_marker) {
      std::size_t nl = text.find('\n');
      node = trim(text.substr(k_node_marker.size(), nl - k_node_marker.size()));
      text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    }
    if (node.empty()) continue;  // srun's own lines, or a task that never started its script
    std::string source = fmt::format("srun task {} on {}", task.label, node);
    JsonValues values = split_json_values(text);
    bool ok = false;
    std::string why;
    for (auto v : values.values) {
      auto r = parse_node_report(v, source);
      if (!r) {
        why = r.error().message;
        continue;
      }
      r->node = node;
      g.input.reports.push_back(std::move(*r));
      ok = true;
      break;
    }
    reported.insert(node);
    if (ok) continue;
    std::string reason = errors.count(node) ? errors[node] : "";
    if (reason.find("exit code 124") != std::string::npos || reason.find("exit code 137") != std::string::npos)
      reason = fmt::format("no report within the {} s deadline ({})", secs, reason);
    else if (!why.empty())
      reason = why + (reason.empty() ? "" : " (" + reason + ")");
    else if (reason.empty())
      reason = "printed no report";
    g.input.problems.push_back({NodeProblem::Kind::unreachable, node, source, reason});
  }
  // Nodes that never announced themselves: srun could not start them, or srun itself failed.
  std::string srun_words = ran->ok() ? "" : describe_failure(*ran);
  for (const auto& n : runnable) {
    if (reported.count(n)) continue;
    std::string reason = errors.count(n) ? errors[n] : srun_words.empty() ? "srun started no task there" : "srun: " + srun_words;
    g.input.problems.push_back({NodeProblem::Kind::unreachable, n, "srun", reason});
  }
  return g;
}

HealthPlan plan_health(const SlurmNode& node, const std::vector<facts::Finding>& findings) {
  HealthPlan p;
  p.node = node.name;
  std::vector<std::string> errors;
  for (const auto& f : findings)
    if (f.severity == facts::Severity::error && f.explained_by.empty()) errors.push_back(f.id);
  if (errors.empty())
    for (const auto& f : findings)
      if (f.severity == facts::Severity::error) errors.push_back(f.id);
  bool is_drained = drained(node);
  bool by_us = ours(node.reason);
  if (!errors.empty()) {
    p.reason = fmt::format("{} {}{}", k_drain_prefix, errors.front(),
                           errors.size() > 1 ? fmt::format(" (+{} more)", errors.size() - 1) : "");
    if ((is_drained || down(node)) && node.reason != "none" && !by_us) {
      p.action = HealthAction::leave_alone;
      p.explanation = fmt::format("{} is {} for another reason ({}); left alone", node.name, node.state, node.reason);
      return p;
    }
    if (is_drained && by_us) {
      if (node.reason == p.reason) {
        p.explanation = fmt::format("{} is already drained: {}", node.name, node.reason);
        return p;
      }
      p.action = HealthAction::update_reason;
    } else {
      p.action = HealthAction::drain;
    }
    p.scontrol = {"scontrol", "update", "NodeName=" + node.name, "State=DRAIN", "Reason=" + p.reason};
    p.explanation = fmt::format("{} {}: {}", p.action == HealthAction::drain ? "draining" : "updating the drain reason of",
                                node.name, p.reason);
    return p;
  }
  if ((is_drained || down(node)) && by_us) {
    p.action = HealthAction::resume;
    p.scontrol = {"scontrol", "update", "NodeName=" + node.name, "State=RESUME"};
    p.explanation = fmt::format("resuming {}: healthy again (it was drained with \"{}\")", node.name, node.reason);
    return p;
  }
  if (is_drained || down(node)) {
    p.action = HealthAction::leave_alone;
    p.explanation = fmt::format("{} is healthy but {} for another reason ({}); left alone", node.name, node.state, node.reason);
    return p;
  }
  p.explanation = fmt::format("{} is healthy", node.name);
  return p;
}

sys::Expected<SlurmNode> slurm_node_state(const std::string& node, std::chrono::milliseconds timeout) {
  auto r = run({"sinfo", "-h", "-N", "-n", node, "-o", "%N|%T|%E"}, timeout);
  if (!r) return sys::Error{sys::ErrorCode::unavailable, "cannot run sinfo: " + r.error().message};
  if (!r->ok()) return sys::Error{sys::ErrorCode::unavailable, "sinfo failed: " + describe_failure(*r)};
  for (auto& n : parse_sinfo(r->out))
    if (n.name == node) return n;
  return sys::Error{sys::ErrorCode::not_found, fmt::format("sinfo does not know a node named {}", util::printable(node))};
}

sys::Expected<bool> apply_health_plan(const HealthPlan& plan, std::chrono::milliseconds timeout) {
  if (plan.scontrol.empty()) return true;
  auto r = run(plan.scontrol, timeout);
  if (!r) return sys::Error{sys::ErrorCode::unavailable, "cannot run scontrol: " + r.error().message};
  if (!r->ok()) return sys::Error{sys::ErrorCode::unavailable, "scontrol failed: " + describe_failure(*r)};
  return true;
}

}  // namespace gpudoctor::fleet
