// NvmlGpuSource: the GpuSource that asks NVML, through a `gpudoctor __sample-nvml` helper child
// (probe/driver/nvml_sampler.hpp), once per sample: utilisation, memory, power and throttle reasons
// per GPU; memory and SM share per process.
//
// read() never blocks longer than `answer_wait`: NVML's first answer can take seconds (nvmlInit on
// a machine without persistence mode) and the watched job's output must keep flowing meanwhile, so
// a reading that is not there in time is simply missing from that sample (unknown, never zero). A
// helper that does not finish initialising within `init_timeout`, stops answering a request for
// `hang_timeout`, or dies, is stopped, and description() says what happened and when; the samples
// after it carry no GPU figures.
//
// NVML reports host pids. In a child pid namespace (a container) they cannot be matched to the
// run's processes, so per-process GPU figures are reported unknown rather than zero.
//
// Thread-safety: none; called from the sampler's thread only.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <sys/file_system.hpp>
#include <watch/gpu_source.hpp>

namespace gpudoctor::watch {

struct NvmlSourceOptions {
  std::string library = "libnvidia-ml.so.1";  // GPUDOCTOR_NVML_LIBRARY; "none" disables NVML
  std::chrono::milliseconds answer_wait{200};
  std::chrono::milliseconds init_timeout{5000};
  std::chrono::milliseconds hang_timeout{2000};
};

// The helper is `self_executable __sample-nvml LIBRARY`. `fs` reads /proc (REQUIRES: outlives the
// source). Never fails: a source that cannot start says why in description().
std::unique_ptr<GpuSource> make_nvml_gpu_source(const sys::FileSystem& fs, const std::string& self_executable,
                                                NvmlSourceOptions options);

}  // namespace gpudoctor::watch
