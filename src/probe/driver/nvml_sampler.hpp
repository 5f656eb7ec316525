// The NVML sampler: the child half of the run layer's GPU figures. `gpudoctor __sample-nvml LIBRARY`
// opens NVML once, says whether it could (one JSON line), then answers every line it reads on stdin
// with one JSON line of readings, until stdin closes. The parent (watch/nvml_gpu_source) asks once
// per sampling interval; it never loads the vendor library itself, so a hanging or crashing NVML
// costs the run its GPU figures, never the run.
//
// Lines, one JSON object each:
//   hello:   {"ready": true, "driver_version": "550.54.14", "count": 2}
//            {"ready": false, "error": "nvmlInit: Driver/library version mismatch (18)"}
//   reading: {"gpus": [GpuSample...], "processes": [{"pid": 41, "gpu": 0, "memory_bytes": N,
//            "sm_percent": N}], "processes_unknown": "why", "process_sm_unknown": "why"}
//            (pids as NVML reports them: the host's; the *_unknown keys only when so)
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

namespace gpudoctor::probe {

inline constexpr std::string_view k_sample_nvml_command = "__sample-nvml";

// The child's side. Returns the exit status: 0 when stdin closed, 1 when NVML could not be used.
int run_nvml_sampler_child(const std::string& library, std::istream& in, std::ostream& out);

}  // namespace gpudoctor::probe
