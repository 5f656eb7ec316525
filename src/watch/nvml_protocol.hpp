// The NVML sampling helper's answers (`gpudoctor __sample-nvml`, one JSON object per line on its
// stdout) read into a GpuReading. The helper runs a vendor library in a child process; what it
// prints is read as untrusted input: a malformed answer is an error value, never an exception or
// a crash (tests/fuzz nvml target).
// Thread-safety: pure function.
#pragma once

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include <watch/gpu_source.hpp>

namespace gpudoctor::watch {

// One reading: {"gpus": [...], "processes": [{"pid", "memory_bytes", "sm_percent"}],
// "processes_unknown"?: why, "process_sm_unknown"?: why}. `pid_namespace_note`, when not empty,
// says that NVML's pids cannot be matched to ours: per-process figures are then unknown with it.
// Returns the reading, or why it could not be read.
std::variant<GpuReading, std::string> parse_nvml_reading(const nlohmann::json& answer,
                                                         const std::string& pid_namespace_note);

}  // namespace gpudoctor::watch
