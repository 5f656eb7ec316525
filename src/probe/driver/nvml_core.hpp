// What both NVML clients (the one-shot driver probe, nvml_library.cpp, and the run layer's sampler,
// nvml_sampler.cpp) bind and call the same way: the five entry points without which nothing can be
// asked, and the list of compute processes with its three struct versions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <probe/driver/nvml_abi.hpp>
#include <probe/driver/symbol.hpp>

namespace gpudoctor::probe::nvml_abi {

struct CoreApi {
  nvmlReturn_t (*init)() = nullptr;
  nvmlReturn_t (*shutdown)() = nullptr;
  const char* (*error_string)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*device_count)(unsigned*) = nullptr;
  nvmlReturn_t (*handle_by_index)(unsigned, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*processes)(nvmlDevice_t, unsigned*, void*) = nullptr;  // optional
  bool processes_v1 = false;  // the unversioned call fills nvmlProcessInfo_v1_t
};

// Binds the required entry points (versioned names first, as nvml.h's #defines map them) and the
// optional process list.
inline void bind_core(Symbols& syms, CoreApi& api) {
  syms.required(api.init, {"nvmlInit_v2", "nvmlInit"});
  syms.required(api.shutdown, {"nvmlShutdown"});
  syms.required(api.error_string, {"nvmlErrorString"});
  syms.required(api.device_count, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"});
  syms.required(api.handle_by_index, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"});
  std::string_view procs = syms.optional(api.processes, {"nvmlDeviceGetComputeRunningProcesses_v3",
                                                         "nvmlDeviceGetComputeRunningProcesses_v2",
                                                         "nvmlDeviceGetComputeRunningProcesses"});
  api.processes_v1 = procs == "nvmlDeviceGetComputeRunningProcesses";
}

// NVML's own text for `r` ("Driver/library version mismatch"), or "NVML error" without one.
inline std::string error_text(const CoreApi& api, nvmlReturn_t r) {
  const char* s = api.error_string ? api.error_string(r) : nullptr;
  return s ? std::string(s) : std::string("NVML error");
}

// "nvmlDeviceGetUtilizationRates: Not Supported (3)": the evidence form of a failed call.
inline std::string call_error(const CoreApi& api, std::string_view call, nvmlReturn_t r) {
  return std::string(call) + ": " + error_text(api, r) + " (" + std::to_string(r) + ")";
}

// Why a fact is unknown when its entry point is absent.
inline std::string not_exported(std::string_view symbol) {
  return std::string(symbol) + " is not exported by this libnvidia-ml";
}

struct ComputeProcess {
  unsigned pid = 0;
  unsigned long long used_memory = 0;  // k_value_not_available when NVML cannot say
};

// The compute processes on `dev`, at most k_max_processes (INSUFFICIENT_SIZE beyond).
// REQUIRES: api.processes is bound.
inline nvmlReturn_t list_compute_processes(const CoreApi& api, nvmlDevice_t dev, std::vector<ComputeProcess>& out) {
  unsigned count = k_max_processes;
  out.clear();
  auto fill = [&](auto& info) {
    nvmlReturn_t r = api.processes(dev, &count, info.data());
    for (unsigned i = 0; r == k_nvml_success && i < count && i < info.size(); ++i) {
      out.push_back({info[i].pid, info[i].usedGpuMemory});
    }
    return r;
  };
  if (api.processes_v1) {
    std::vector<nvmlProcessInfo_v1_t> info(count);
    return fill(info);
  }
  std::vector<nvmlProcessInfo_v2_t> info(count);
  return fill(info);
}

}  // namespace gpudoctor::probe::nvml_abi
