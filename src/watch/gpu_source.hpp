// GpuSource: where per-GPU and per-process GPU figures come from while a run is sampled. The
// driver layer's NVML access plugs in here (a source that asks NVML, in a helper process, for
// utilisation, memory, power, throttle reasons and each process's GPU memory); without it the
// run layer still sees everything /proc shows (libraries mapped, device nodes held) and says that
// the GPU figures are unknown, never zero.
//
// NVML reports host pids (it ignores pid namespaces), so inside a container a source must map them
// to ours itself before filling `process_memory_bytes`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <watch/timeline.hpp>

namespace gpudoctor::watch {

struct GpuReading {
  std::vector<GpuSample> gpus;
  // Per process, pid in our namespace: used GPU memory (summed over GPUs) and the highest SM share
  // on any GPU since the last reading.
  std::map<int, Known<std::uint64_t>> process_memory_bytes;
  std::map<int, double> process_sm_percent;
  // Whether a pid absent from process_memory_bytes means "holds no GPU memory" (the source listed
  // every compute process in our pid namespace), or nothing is known of it (`processes_unknown`).
  bool processes_listed = false;
  std::string processes_unknown;
  // Set when no GPU answered per-process SM samples: a process absent from process_sm_percent then
  // has an unknown share, not 0 %.
  std::string process_sm_unknown;
};

class GpuSource {
 public:
  virtual ~GpuSource() = default;
  // One reading, for the processes `pids` of the watched tree. Must return within a fraction of the
  // sampling interval.
  virtual GpuReading read(std::span<const int> pids) = 0;
  // "NVML 550.54.14", or why there are no GPU figures ("NVML is not available: ..."). May change
  // during a run (a helper that stopped answering says so from then on).
  virtual std::string description() const = 0;
  // CPU seconds the source's helper processes used so far (part of what watching costs).
  virtual double helper_cpu_seconds() const { return 0; }
};

// A source that reports no GPUs, for machines (and builds) without NVML access; `why` is what the
// report says about the missing figures.
std::unique_ptr<GpuSource> make_unavailable_gpu_source(std::string why);

}  // namespace gpudoctor::watch
