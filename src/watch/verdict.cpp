#include <watch/verdict.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include <facts/clock_event_reasons.hpp>
#include <util/text.hpp>
#include <watch/proc_parse.hpp>

namespace gpudoctor::watch {
namespace {

using facts::Finding;
using facts::FindingInfo;
using facts::Layer;
using facts::Severity;

enum VerdictIndex { k_never_used_gpu, k_gpu_idle, k_input_bound, k_gpu_bound, k_oom, k_crashed };

constexpr std::array<FindingInfo, 6> k_infos = {{
    {"run.never_used_gpu", Layer::run, Severity::error,
     "The run never used a GPU: no process of it opened a GPU device",
     "No process of the run's tree held /dev/nvidia<N>, /dev/kfd or a DRM render node open at any sample, and "
     "NVML (when available) listed none of them; the message says which GPU libraries it loaded anyway",
     "Fix the root cause the verdict names (a CPU-only framework build, a hidden or missing device); without one, "
     "look for a hard-coded CPU device in the code (`gpudoctor scan`)"},
    {"run.gpu_idle", Layer::run, Severity::warning, "The run opened a GPU but left it (mostly) idle",
     "A GPU device was held, NVML reported GPU busy below 50 % on average, and no process of the run was "
     "saturating a CPU core",
     "Look for host synchronisation in the loop (.item(), .cpu(), print of a tensor), tiny batches, or a job "
     "waiting on I/O or another process; the PyTorch profiler shows where the time goes"},
    {"run.input_bound", Layer::run, Severity::warning,
     "The GPU waited for its input: GPU busy was low while a CPU core feeding it was saturated",
     "A GPU device was held, NVML reported GPU busy below 50 % on average, and the busiest process of the run "
     "used at least 80 % of one core",
     "Feed the GPU in parallel: DataLoader(num_workers=N, pin_memory=True, persistent_workers=True), move "
     "per-sample transforms to the GPU or precompute them, and use a larger batch"},
    {"run.gpu_bound", Layer::run, Severity::info, "The run kept its GPU busy: the GPU is the bottleneck",
     "NVML reported GPU busy at 50 % or more on average over the run's samples (the run's own SM share instead, "
     "where NVML gives it and other processes' kernels made the device busier)",
     "Nothing to fix; to go faster use mixed precision (torch.autocast), TF32/bf16, or more GPUs"},
    {"run.oom", Layer::run, Severity::error, "The run ran out of GPU memory",
     "A CUDA out-of-memory message appeared in the run's output (log.cuda_oom)",
     "Use a smaller batch, torch.autocast (bf16/fp16), gradient checkpointing, free cached tensors, and "
     "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation"},
    {"run.crashed_on_gpu_error", Layer::run, Severity::error, "The run died after a GPU error",
     "The run exited with a non-zero status or a signal, and its output carried an error-severity GPU message",
     "Fix the error the verdict names (its log finding says what it means)"},
}};

struct GpuSummary {
  int index = 0;
  std::string name;
  int busy_samples = 0;
  double busy_sum = 0;
  std::optional<std::uint64_t> peak_used;
  std::optional<std::uint64_t> total;
  int reason_samples = 0;      // samples that reported clock event reasons
  int slowed_samples = 0;      // ... of which carried a serious one (thermal, HW slowdown, power brake)
  std::uint64_t slowed_by = 0;  // the serious reasons seen
  double mean_busy() const { return busy_samples > 0 ? busy_sum / busy_samples : 0; }
};

struct ProcessSummary {
  int pid = 0;
  std::string name;
  int cpu_samples = 0;
  double cpu_sum = 0;
  std::uint64_t peak_gpu_memory = 0;
  int sm_samples = 0;
  double sm_sum = 0;
  double mean_cpu() const { return cpu_samples > 0 ? cpu_sum / cpu_samples : 0; }
};

struct Observed {
  std::uint32_t libraries = 0;
  std::set<std::string> devices;
  std::set<int> pids;
  std::map<int, ProcessSummary> processes;
  std::map<int, GpuSummary> gpus;
  std::uint64_t peak_process_gpu_memory = 0;  // the tree's total, at its highest sample
  bool nvml_listed_a_process = false;
};

Observed observe(const Timeline& t) {
  Observed o;
  for (const auto& s : t.samples) {
    std::uint64_t tree_memory = 0;
    for (const auto& p : s.processes) {
      o.libraries |= p.libraries;
      o.devices.insert(p.devices.begin(), p.devices.end());
      o.pids.insert(p.pid);
      auto& ps = o.processes[p.pid];
      ps.pid = p.pid;
      ps.name = p.name;
      if (p.cpu_percent.known()) {
        ps.cpu_sum += *p.cpu_percent;
        ++ps.cpu_samples;
      }
      if (p.gpu_memory_bytes.known() && *p.gpu_memory_bytes > 0) {
        tree_memory += *p.gpu_memory_bytes;
        ps.peak_gpu_memory = std::max(ps.peak_gpu_memory, *p.gpu_memory_bytes);
        o.nvml_listed_a_process = true;
      }
      // SM share is averaged over the samples in which the process held GPU memory.
      if (p.gpu_sm_percent.known() && p.gpu_memory_bytes.known() && *p.gpu_memory_bytes > 0) {
        ps.sm_sum += *p.gpu_sm_percent;
        ++ps.sm_samples;
      }
    }
    o.peak_process_gpu_memory = std::max(o.peak_process_gpu_memory, tree_memory);
    for (const auto& g : s.gpus) {
      auto& gs = o.gpus[g.index];
      gs.index = g.index;
      gs.name = g.name;
      if (g.busy_percent.known()) {
        gs.busy_sum += *g.busy_percent;
        ++gs.busy_samples;
      }
      if (g.memory_used_bytes.known()) gs.peak_used = std::max(gs.peak_used.value_or(0), *g.memory_used_bytes);
      if (g.memory_total_bytes.known()) gs.total = *g.memory_total_bytes;
      if (g.throttle_reasons.known()) {
        ++gs.reason_samples;
        if (std::uint64_t serious = *g.throttle_reasons & facts::k_clock_events_serious; serious != 0) {
          ++gs.slowed_samples;
          gs.slowed_by |= serious;
        }
      }
    }
  }
  return o;
}

bool held_gpu_context(const Observed& o) {
  return o.nvml_listed_a_process ||
         std::any_of(o.devices.begin(), o.devices.end(), [](const std::string& d) { return is_gpu_context_device(d); });
}

std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1u << 30)); }

std::string join_set(const std::set<std::string>& s) {
  return util::join(std::vector<std::string>(s.begin(), s.end()), ", ");
}

// The GPUs this run used: those whose /dev/nvidia<N> it held, else (no such match) every GPU that
// reported utilisation.
std::vector<const GpuSummary*> used_gpus(const Observed& o) {
  std::vector<const GpuSummary*> held, all;
  for (const auto& [index, g] : o.gpus) {
    if (g.busy_samples == 0) continue;
    all.push_back(&g);
    if (o.devices.count("/dev/nvidia" + std::to_string(index))) held.push_back(&g);
  }
  return held.empty() ? all : held;
}

const ProcessSummary* busiest(const Observed& o) {
  const ProcessSummary* best = nullptr;
  for (const auto& [pid, p] : o.processes) {
    if (p.cpu_samples == 0) continue;
    if (best == nullptr || p.mean_cpu() > best->mean_cpu()) best = &p;
  }
  return best;
}

Finding make(VerdictIndex which, std::string message, std::vector<std::string> evidence, std::string fix = {}) {
  const FindingInfo& info = k_infos[which];
  Finding f;
  f.id = std::string(info.id);
  f.layer = info.layer;
  f.severity = info.severity;
  f.message = std::move(message);
  f.evidence = std::move(evidence);
  f.fix = fix.empty() ? std::string(info.fix) : std::move(fix);
  f.docs = facts::docs_anchor(info.id);
  return f;
}

std::string exit_text(const Timeline& t) {
  if (t.term_signal != 0) return fmt::format("killed by signal {} (status {})", t.term_signal, t.exit_status.value_or(0));
  if (t.exit_status.known()) return fmt::format("exit status {}", *t.exit_status);
  return "exit status unknown";
}

bool ended_badly(const Timeline& t) { return t.exit_status.known() && *t.exit_status != 0; }

std::vector<std::string> observation_evidence(const Timeline& t, const Observed& o) {
  std::vector<std::string> ev;
  ev.push_back(fmt::format("{} process(es) observed over {:.1f} s in {} sample(s) every {:.2f} s; {}", o.pids.size(),
                           t.duration_s, t.samples.size(), t.interval_s, exit_text(t)));
  auto libs = library_names(o.libraries);
  ev.push_back(libs.empty() ? std::string("GPU libraries mapped: none (/proc/PID/maps)")
                            : "GPU libraries mapped: " + util::join(libs, ", "));
  ev.push_back(o.devices.empty() ? std::string("GPU device nodes held open: none (/proc/PID/fd)")
                                 : "GPU device nodes held open: " + join_set(o.devices));
  return ev;
}

// The other layers' findings that can explain a run that never reached the GPU. A framework
// finding explains it at any severity: a CPU-only torch is only "info" on a machine without a GPU,
// yet it is still why this run could not have used one.
std::vector<const Finding*> lower_layer_causes(std::span<const Finding> machine) {
  std::vector<const Finding*> out;
  for (const auto& f : machine) {
    if (f.layer == Layer::run) continue;
    if (f.severity != Severity::info || f.layer == Layer::framework) out.push_back(&f);
  }
  std::stable_sort(out.begin(), out.end(), [](const Finding* a, const Finding* b) {
    if (facts::rank(a->severity) != facts::rank(b->severity)) return facts::rank(a->severity) < facts::rank(b->severity);
    return facts::rank(a->layer) < facts::rank(b->layer);
  });
  return out;
}

std::string root_cause_sentence(const std::vector<const Finding*>& causes) {
  if (causes.empty()) return {};
  const Finding& c = *causes.front();
  std::string s = fmt::format(" Root cause ({} layer, {}): {}", facts::to_string(c.layer), c.id, c.message);
  if (!s.empty() && s.back() != '.') s += '.';
  return s;
}

Finding never_used(const Timeline& t, const Observed& o, const std::vector<const Finding*>& causes) {
  std::string what;
  auto libs = library_names(o.libraries);
  bool talked_to_driver = !o.devices.empty();
  if (libs.empty() && !talked_to_driver) {
    what = fmt::format(
        "The run never used a GPU: none of its {} process(es) opened a GPU device (/dev/nvidia*, /dev/kfd) or "
        "loaded a GPU library (libcuda, libcudart, libtorch_cuda, ROCm).",
        o.pids.size());
  } else {
    what = fmt::format(
        "The run tried to use a GPU and found none: it {}{}{}, but no process of it ever opened a GPU device "
        "(/dev/nvidia<N>, /dev/kfd), so no device was found or usable.",
        libs.empty() ? "" : "loaded " + util::join(libs, ", "), !libs.empty() && talked_to_driver ? " and " : "",
        talked_to_driver ? "opened " + join_set(o.devices) : "");
  }
  what += root_cause_sentence(causes);
  Finding f = make(k_never_used_gpu, std::move(what), observation_evidence(t, o),
                   causes.empty() ? std::string() : causes.front()->fix);
  for (const auto* c : causes) f.explained_by.push_back(c->id);
  return f;
}

std::vector<const Finding*> log_findings_with(std::span<const Finding> log, Severity severity) {
  std::vector<const Finding*> out;
  for (const auto& f : log) {
    if (f.severity == severity) out.push_back(&f);
  }
  return out;
}

std::string first_event_text(const Timeline& t, std::string_view id, double* when) {
  for (const auto& e : t.events) {
    if (e.kind == EventKind::log && (id.empty() || e.id == id) && (!id.empty() || e.severity == Severity::error)) {
      *when = e.t;
      return e.text;
    }
  }
  return {};
}

std::string memory_text(const Observed& o) {
  std::vector<std::string> parts;
  for (const auto& [index, g] : o.gpus) {
    if (g.peak_used && g.total) {
      // One GPU needs no name: the sentence around it already says "GPU 0".
      parts.push_back(o.gpus.size() == 1 ? fmt::format("peak {} of {} in use", gib(*g.peak_used), gib(*g.total))
                                         : fmt::format("GPU {} peak {} of {}", index, gib(*g.peak_used), gib(*g.total)));
    }
  }
  if (parts.empty() && o.peak_process_gpu_memory > 0) parts.push_back("peak " + gib(o.peak_process_gpu_memory) + " held by the run");
  return util::join(parts, "; ");
}

// What NVML said of each of the run's processes on the GPU.
void add_gpu_process_evidence(const Observed& o, std::vector<std::string>& ev) {
  for (const auto& [pid, p] : o.processes) {
    if (p.peak_gpu_memory == 0) continue;
    ev.push_back(fmt::format("{} (pid {}) held up to {} of GPU memory{} (NVML)", p.name, pid, gib(p.peak_gpu_memory),
                             p.sm_samples > 0 ? fmt::format(", SM busy {:.0f} % on average", p.sm_sum / p.sm_samples)
                                              : std::string()));
  }
}

// The run's own SM share (the sum over its processes of each one's mean), when NVML reported it.
std::optional<double> own_sm_percent(const Observed& o) {
  std::optional<double> sum;
  for (const auto& [pid, p] : o.processes) {
    if (p.sm_samples > 0) sum = sum.value_or(0) + p.sm_sum / p.sm_samples;
  }
  return sum;
}

// "GPU 0 was slowed in 7 of 10 samples: HW thermal slowdown (...)", for each used GPU NVML saw slowed.
std::vector<std::string> slowdown_text(const std::vector<const GpuSummary*>& gpus) {
  std::vector<std::string> out;
  for (const auto* g : gpus) {
    if (g->slowed_samples == 0) continue;
    out.push_back(fmt::format("GPU {} was slowed in {} of {} samples: {}", g->index, g->slowed_samples,
                              g->reason_samples, util::join(facts::clock_event_reason_names(g->slowed_by), "; ")));
  }
  return out;
}

}  // namespace

std::span<const FindingInfo> run_verdict_infos() { return k_infos; }

Verdict decide(const Timeline& t, std::span<const Finding> machine, std::span<const Finding> log) {
  Verdict v;
  const Observed o = observe(t);
  std::vector<const Finding*> explainers;
  std::optional<Finding> verdict;

  auto oom = std::find_if(log.begin(), log.end(), [](const Finding& f) { return f.id == "log.cuda_oom"; });
  auto errors = log_findings_with(log, Severity::error);
  if (oom != log.end()) {
    double when = 0;
    std::string line = first_event_text(t, "log.cuda_oom", &when);
    std::string mem = memory_text(o);
    std::string msg = fmt::format("Out of memory {}({}){}.", line.empty() ? "" : fmt::format("at {:.1f} s ", when),
                                  line.empty() ? oom->message : line, mem.empty() ? "" : ": " + mem);
    auto ev = observation_evidence(t, o);
    for (const auto& [index, g] : o.gpus) {
      if (g.peak_used && g.total && static_cast<double>(*g.peak_used) >= k_memory_full_fraction * static_cast<double>(*g.total)) {
        ev.push_back(fmt::format("GPU {} reached {:.0f} % of its memory", index,
                                 100.0 * static_cast<double>(*g.peak_used) / static_cast<double>(*g.total)));
      }
    }
    verdict = make(k_oom, std::move(msg), std::move(ev));
    explainers.push_back(&*oom);
  } else if (ended_badly(t) && !errors.empty()) {
    double when = 0;
    std::string line = first_event_text(t, "", &when);
    const Finding& first = *errors.front();
    std::string msg = fmt::format("The run ended ({}) after a GPU error{}: {} [{}]", exit_text(t),
                                  line.empty() ? "" : fmt::format(" at {:.1f} s", when), first.message, first.id);
    verdict = make(k_crashed, std::move(msg), observation_evidence(t, o), first.fix);
    explainers = errors;
    // A driver or framework fault behind the error (a version mismatch behind "unknown error").
    for (const auto* c : lower_layer_causes(machine)) {
      if (c->severity == Severity::error) explainers.push_back(c);
    }
  } else if (!held_gpu_context(o)) {
    explainers = lower_layer_causes(machine);
    for (const auto* l : log_findings_with(log, Severity::error)) explainers.push_back(l);
    for (const auto* l : log_findings_with(log, Severity::warning)) explainers.push_back(l);
    verdict = never_used(t, o, explainers);
  } else {
    auto gpus = used_gpus(o);
    if (gpus.empty()) {
      v.notes.push_back(fmt::format(
          "The run opened a GPU ({}) but its utilisation was not reported ({}): whether it kept the GPU busy, idle or "
          "waiting for input is unknown.",
          join_set(o.devices), t.gpu_source.empty() ? "no GPU source" : t.gpu_source));
    } else {
      double busy = 0;
      std::vector<std::string> names;
      for (const auto* g : gpus) {
        busy += g->mean_busy();
        names.push_back(std::to_string(g->index));
      }
      busy /= static_cast<double>(gpus.size());
      // NVML's device busy counts every process's kernels. Where NVML also gave this run's own SM
      // share, a GPU kept busy by someone else's job must not make this run look GPU-bound.
      std::string shared;
      if (auto own = own_sm_percent(o); own && busy - *own >= k_shared_gpu_gap_percent) {
        shared = fmt::format(" NVML's device busy was {:.0f} %, but this run's own kernels only {:.0f} %: other "
                             "processes shared the GPU.",
                             busy, *own);
        busy = *own;
      }
      const ProcessSummary* hot = busiest(o);
      double hot_cpu = hot != nullptr ? hot->mean_cpu() : 0;
      std::string mem = memory_text(o);
      std::string gpu_list = fmt::format("GPU {}", util::join(names, ", "));
      auto ev = observation_evidence(t, o);
      if (hot != nullptr) {
        ev.push_back(fmt::format("busiest process: {} (pid {}) at {:.0f} % of one core on average", hot->name,
                                 hot->pid, hot_cpu));
      }
      if (!shared.empty()) ev.push_back(std::string(util::trim(shared)));
      add_gpu_process_evidence(o, ev);
      auto slowed = slowdown_text(gpus);
      ev.insert(ev.end(), slowed.begin(), slowed.end());
      int workers = static_cast<int>(o.pids.size()) - 1;
      if (busy >= k_low_busy_percent) {
        verdict = make(k_gpu_bound,
                       fmt::format("{} was busy {:.0f} % of the time on average{}: the GPU is the bottleneck, as it "
                                   "should be.{}{}",
                                   gpu_list, busy, mem.empty() ? "" : " (" + mem + ")",
                                   slowed.empty() ? "" : " But " + slowed.front() + ".", shared),
                       std::move(ev),
                       slowed.empty() ? std::string()
                                      : "The GPU itself is held back: check its cooling (fans, airflow, "
                                        "`nvidia-smi -q -d TEMPERATURE,PERFORMANCE`) and power delivery; then "
                                        "mixed precision (torch.autocast) and TF32/bf16 for more speed");
      } else if (hot_cpu >= k_saturated_cpu_percent) {
        verdict = make(k_input_bound,
                       fmt::format("{} {}, but GPU busy averaged {:.0f} % while {} (pid {}) used {:.0f} % of one core "
                                   "and {} worker process(es) helped it: input-bound, the GPU waits for data.{}",
                                   gpu_list,
                                   o.peak_process_gpu_memory > 0
                                       ? "held " + gib(o.peak_process_gpu_memory) + " for this run"
                                       : (mem.empty() ? std::string("was held by this run") : "was held (" + mem + ")"),
                                   busy, hot->name, hot->pid, hot_cpu, workers, shared),
                       std::move(ev));
      } else {
        verdict = make(k_gpu_idle,
                       fmt::format("{} was opened{} but GPU busy averaged only {:.0f} %{}, and no process saturated a "
                                   "CPU core: the GPU sat {}idle.{}",
                                   gpu_list, mem.empty() ? "" : " (" + mem + ")", busy,
                                   hot != nullptr ? fmt::format(" (busiest process {:.0f} % of one core)", hot_cpu) : "",
                                   busy < k_idle_busy_percent ? "" : "mostly ", shared),
                       std::move(ev));
      }
      for (const auto* l : log_findings_with(log, Severity::warning)) explainers.push_back(l);
    }
  }

  std::set<std::string> named;
  if (verdict) {
    for (const auto* e : explainers) {
      if (std::find(verdict->explained_by.begin(), verdict->explained_by.end(), e->id) == verdict->explained_by.end()) {
        verdict->explained_by.push_back(e->id);
      }
    }
    v.findings.push_back(std::move(*verdict));
    std::vector<Finding> named_findings;
    for (const auto* e : explainers) {
      if (named.insert(e->id + "\n" + e->message).second) named_findings.push_back(*e);
    }
    facts::sort_root_cause_first(named_findings);
    v.findings.insert(v.findings.end(), named_findings.begin(), named_findings.end());
  }
  for (const auto& l : log) {
    if (named.insert(l.id + "\n" + l.message).second) v.findings.push_back(l);
  }
  return v;
}

}  // namespace gpudoctor::watch
