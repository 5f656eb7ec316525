// Timeline: what `gpudoctor run` / `watch` observed of a process tree, sample by sample, plus the
// events (log messages matched as the output streamed, the exit). Plain data: the sampler fills it,
// the verdict reads it, and its JSON form is the `timeline` of the run report (the HTML page draws
// its chart from that JSON).
//
// Unknown is not zero: a GPU's busy percentage that NVML did not report is Known::unknown, and a
// process's CPU share is unknown on its first sample (a share needs two readings).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <facts/finding.hpp>
#include <facts/known.hpp>

namespace gpudoctor::watch {

using facts::Known;

// The libraries whose presence in /proc/PID/maps says a process initialised (or tried to) a GPU stack.
enum class GpuLibrary : std::uint32_t {
  libcuda = 1u << 0,        // the driver API: present once CUDA is initialised
  libcudart = 1u << 1,      // the CUDA runtime
  libnvidia_ml = 1u << 2,   // NVML
  libtorch_cuda = 1u << 3,  // PyTorch's CUDA backend
  libcublas = 1u << 4,
  libcudnn = 1u << 5,
  libnccl = 1u << 6,
  libamdhip64 = 1u << 7,    // ROCm HIP runtime
  libhsa_runtime64 = 1u << 8,
};

// Which of `mask`'s libraries, by name ("libcuda", "libcudart", ...), in table order.
std::vector<std::string> library_names(std::uint32_t mask);
std::uint32_t library_mask(const std::vector<std::string>& names);
// The library a mapped file is, or 0: "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14" -> libcuda.
std::uint32_t library_of_path(std::string_view path);

struct ProcessSample {
  int pid = 0;
  int ppid = 0;
  std::string name;               // comm from /proc/PID/stat
  Known<double> cpu_percent;      // of one core, since the previous sample
  int threads = 0;
  std::uint64_t rss_bytes = 0;
  std::uint32_t libraries = 0;    // GpuLibrary bits mapped
  std::vector<std::string> devices;  // GPU device nodes held open: "/dev/nvidia0", "/dev/kfd"
  Known<std::uint64_t> gpu_memory_bytes;  // NVML's used GPU memory of this process, all GPUs
  Known<double> gpu_sm_percent;           // NVML's SM share of this process (highest GPU) since the last sample
  bool operator==(const ProcessSample&) const = default;
};

struct GpuSample {
  int index = 0;
  std::string name;
  Known<double> busy_percent;         // NVML utilization.gpu: time a kernel was running
  Known<double> memory_busy_percent;  // NVML utilization.memory
  Known<std::uint64_t> memory_used_bytes;
  Known<std::uint64_t> memory_total_bytes;
  Known<double> power_watts;
  Known<std::uint64_t> throttle_reasons;  // nvmlClocksThrottleReasons bit mask
  bool operator==(const GpuSample&) const = default;
};

struct Sample {
  double t = 0;  // seconds since the run started
  std::vector<ProcessSample> processes;  // the root first, then by pid
  std::vector<GpuSample> gpus;
  bool operator==(const Sample&) const = default;
};

enum class EventKind { log, exit, note };

struct Event {
  double t = 0;
  EventKind kind = EventKind::log;
  std::string id;    // log signature id ("log.cuda_oom") for log events
  facts::Severity severity = facts::Severity::info;
  std::string text;  // the matched line (sanitised), or what happened
  bool operator==(const Event&) const = default;
};

enum class Subject { child, existing_process };

struct Timeline {
  Subject subject = Subject::child;
  std::vector<std::string> command;  // argv of the child, or the watched root's cmdline
  int root_pid = 0;
  double interval_s = 0.5;
  double duration_s = 0;
  std::vector<Sample> samples;
  std::vector<Event> events;
  Known<int> exit_status;              // as a shell reports it ($?); unknown for watch
  int term_signal = 0;                 // the signal that ended the child, 0 when it exited
  std::vector<std::string> executables;  // distinct /proc/PID/exe of the tree
  std::string gpu_source;              // "NVML" or why per-GPU figures are unknown
  Known<double> observer_cpu_seconds;  // gpudoctor's own CPU time while observing
  bool operator==(const Timeline&) const = default;
};

const char* to_string(EventKind kind);

void to_json(nlohmann::json& j, const ProcessSample& p);
void from_json(const nlohmann::json& j, ProcessSample& p);
void to_json(nlohmann::json& j, const GpuSample& g);
void from_json(const nlohmann::json& j, GpuSample& g);
void to_json(nlohmann::json& j, const Sample& s);
void from_json(const nlohmann::json& j, Sample& s);
void to_json(nlohmann::json& j, const Event& e);
void from_json(const nlohmann::json& j, Event& e);
void to_json(nlohmann::json& j, const Timeline& t);
void from_json(const nlohmann::json& j, Timeline& t);

}  // namespace gpudoctor::watch
