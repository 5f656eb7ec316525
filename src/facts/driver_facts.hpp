// The facts of the driver layer: what NVML (libnvidia-ml.so.1), the CUDA driver API (libcuda.so.1)
// and the CUDA runtime (libcudart) answer when asked. Each library is asked in its own child process
// (src/probe/driver_probe.hpp), so a hang or crash is a fact here, not a hung gpudoctor.
//
// Every answer is a Known<T>: a function that returned an error is unknown with the library's own
// error text and code ("nvmlDeviceGetPowerUsage: Not Supported (3)"), never zero.
// Plain data; JSON round trip in driver_facts.cpp. `gpudoctor capture` writes this struct to
// /.gpudoctor/driver.json, and `check --root` reads it back instead of loading anything.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <facts/known.hpp>

namespace gpudoctor::facts {

// How the child process that asked one library ended.
enum class ProbeOutcome {
  not_run,      // nothing asked (replayed capture without driver answers, or --facts)
  answered,     // the child printed its facts
  timed_out,    // killed at the deadline (a hang in nvmlInit, cuInit ...)
  crashed,      // killed by a signal (a segfault inside the library)
  failed,       // exited without usable output (could not start, unparsable answer)
};

struct ProbeRun {
  ProbeOutcome outcome = ProbeOutcome::not_run;
  std::string library;   // what was asked for: a path from GPUDOCTOR_*_LIBRARY or a soname
  std::string detail;    // "SIGSEGV", "no answer within 5000 ms", the child's stderr tail
  double wall_ms = 0;    // the whole child process, exec to exit
  int timeout_ms = 0;
  bool operator==(const ProbeRun&) const = default;
};

// What dlopen/dlsym said about one library.
struct LibraryLoad {
  std::string requested;             // the name passed to dlopen
  Known<std::string> path;           // the file the loader picked (dlinfo), or dlerror() text
  std::vector<std::string> missing_required;  // symbols without which nothing was asked
  std::vector<std::string> missing_optional;  // symbols whose facts are unknown
  bool operator==(const LibraryLoad&) const = default;
};

// A library call's failure: the return code and the library's own text for it.
struct CallError {
  int code = 0;      // 0: the call succeeded
  std::string text;  // nvmlErrorString / cuGetErrorName / cudaGetErrorName
  bool operator==(const CallError&) const = default;
};

struct GpuProcess {
  std::uint32_t pid = 0;
  Known<std::uint64_t> used_memory;  // bytes; NVML reports "not available" under some setups
  Known<std::string> command;        // /proc/PID/cmdline, arguments joined by spaces
  bool operator==(const GpuProcess&) const = default;
};

// nvmlComputeMode_t values (nvml.h).
inline constexpr int k_compute_mode_default = 0;
inline constexpr int k_compute_mode_exclusive_thread = 1;
inline constexpr int k_compute_mode_prohibited = 2;
inline constexpr int k_compute_mode_exclusive_process = 3;

struct NvmlDevice {
  int index = 0;
  CallError handle_error;  // nvmlDeviceGetHandleByIndex_v2 (15: GPU is lost)
  Known<std::string> name;
  Known<std::string> uuid;
  Known<std::string> pci_bus_id;          // "00000000:01:00.0" as NVML writes it
  Known<std::uint32_t> pci_device_id;     // nvmlPciInfo_t.pciDeviceId: device << 16 | vendor
  Known<int> cc_major;
  Known<int> cc_minor;
  Known<int> architecture;                // nvmlDeviceArchitecture_t
  Known<std::uint64_t> memory_total;      // bytes
  Known<std::uint64_t> memory_used;
  Known<std::uint64_t> memory_free;
  Known<int> utilization_gpu;             // percent
  Known<int> utilization_memory;
  Known<int> compute_mode;                // k_compute_mode_*
  Known<int> mig_mode;                    // current: 0 disabled, 1 enabled
  Known<int> mig_pending;
  Known<int> mig_instances;               // MIG devices that exist (handles that answer)
  Known<int> persistence_mode;            // 0 disabled, 1 enabled
  Known<int> ecc_mode;                    // current: 0 disabled, 1 enabled
  Known<std::uint64_t> ecc_uncorrectable_volatile;   // since the last driver load
  Known<std::uint64_t> ecc_uncorrectable_aggregate;  // lifetime
  Known<int> retired_pages_pending;       // 1 when a retirement waits for a reboot/reset
  Known<int> remapped_rows_pending;       // 1 when a row remap waits for a reset (Ampere+)
  Known<int> remapping_failed;
  Known<std::uint64_t> clock_event_reasons;  // nvmlClocksEventReasons bit mask
  Known<int> pcie_gen_current;
  Known<int> pcie_gen_max;
  Known<int> pcie_width_current;
  Known<int> pcie_width_max;
  Known<int> temperature_c;
  Known<int> power_mw;
  Known<int> power_limit_mw;
  Known<std::vector<GpuProcess>> processes;  // compute processes
  Known<int> nvlink_active;                  // links reporting NVML_FEATURE_ENABLED
  Known<int> nvlink_inactive;                // links that exist and are down
  bool operator==(const NvmlDevice&) const = default;
};

struct NvmlFacts {
  ProbeRun run;
  LibraryLoad library;
  CallError init_error;                 // nvmlInit_v2
  Known<std::string> driver_version;    // "550.54.14"
  Known<int> cuda_driver_version;       // 12040
  Known<int> device_count;
  std::vector<NvmlDevice> devices;
  bool operator==(const NvmlFacts&) const = default;
};

struct CudaDevice {
  int ordinal = 0;
  Known<std::string> name;
  Known<int> cc_major;
  Known<int> cc_minor;
  Known<std::string> uuid;           // "GPU-xxxxxxxx-..." formatted like NVML's
  Known<std::string> pci_bus_id;     // cuDeviceGetPCIBusId: "0000:01:00.0"
  Known<std::uint64_t> total_memory;
  bool operator==(const CudaDevice&) const = default;
};

struct CudaFacts {
  ProbeRun run;
  LibraryLoad library;
  Known<int> init_result;          // cuInit(0): 0 or a CUresult
  std::string init_error_name;     // cuGetErrorName of init_result (when the library has it)
  Known<int> driver_version;       // cuDriverGetVersion: 12040
  Known<int> device_count;
  std::vector<CudaDevice> devices;
  bool operator==(const CudaFacts&) const = default;
};

struct CudartFacts {
  ProbeRun run;
  LibraryLoad library;
  Known<int> runtime_version;       // cudaRuntimeGetVersion: 13000 (needs no driver)
  Known<int> driver_version;        // cudaDriverGetVersion: 0 when no driver is installed
  Known<int> device_count_result;   // cudaGetDeviceCount's cudaError_t
  std::string device_count_error;   // cudaGetErrorName of it
  Known<int> device_count;
  bool operator==(const CudartFacts&) const = default;
};

struct DriverFacts {
  NvmlFacts nvml;
  CudaFacts cuda;
  CudartFacts cudart;
  bool operator==(const DriverFacts&) const = default;
};

void to_json(nlohmann::json& j, const DriverFacts& f);
void from_json(const nlohmann::json& j, DriverFacts& f);
void to_json(nlohmann::json& j, const NvmlFacts& f);
void from_json(const nlohmann::json& j, NvmlFacts& f);
void to_json(nlohmann::json& j, const CudaFacts& f);
void from_json(const nlohmann::json& j, CudaFacts& f);
void to_json(nlohmann::json& j, const CudartFacts& f);
void from_json(const nlohmann::json& j, CudartFacts& f);

}  // namespace gpudoctor::facts
