// The run verdict: one pure function from what was observed (the sampled timeline, the log
// messages matched in the child's output) and what the other layers found on this machine to the
// one finding that says whether the run used the GPU and, if not or not well, why — joined with the
// findings that explain it (run.never_used_gpu explained by torch.cpu_only_build).
//
// No I/O, no clock: tests build a Timeline literal and assert the verdict.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <facts/finding.hpp>
#include <watch/timeline.hpp>

namespace gpudoctor::watch {

// The verdict ids (run.never_used_gpu, run.gpu_idle, run.input_bound, run.gpu_bound, run.oom,
// run.crashed_on_gpu_error), for the finding catalogue.
std::span<const facts::FindingInfo> run_verdict_infos();

// Thresholds, after the PyTorch profiler's TensorBoard plugin (GPU utilisation < 50 % is "low")
// and nvitop's colouring (< 10 % is "light").
inline constexpr double k_low_busy_percent = 50.0;
inline constexpr double k_idle_busy_percent = 10.0;
// A process at this share of one core or more is saturating the core that feeds the GPU.
inline constexpr double k_saturated_cpu_percent = 80.0;
// Device busy this many points above the run's own SM share: other processes' kernels made it.
inline constexpr double k_shared_gpu_gap_percent = 25.0;
// Peak GPU memory at this fraction of the total is "at the limit" (TensorBoard plugin: 0.9).
inline constexpr double k_memory_full_fraction = 0.9;

struct Verdict {
  // The verdict first (absent when nothing can be decided), then the findings it names in
  // explained_by, then every other log finding; root cause first within each group.
  std::vector<facts::Finding> findings;
  std::vector<std::string> notes;  // what could not be decided, and why
};

// `machine`: checks::run_checks of this machine. `log`: LogScanner::findings() of the output.
Verdict decide(const Timeline& timeline, std::span<const facts::Finding> machine,
               std::span<const facts::Finding> log);

}  // namespace gpudoctor::watch
