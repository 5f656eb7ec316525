// Parsers for the /proc files the sampler reads, kept apart from the reading so tests feed them
// literals: /proc/PID/stat, /proc/PID/maps and the targets of /proc/PID/fd/* links.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor::watch {

// The fields of /proc/PID/stat the sampler uses (proc_pid_stat(5)); times are in clock ticks.
struct ProcStat {
  std::string comm;
  char state = '?';
  int ppid = 0;
  std::uint64_t utime = 0;
  std::uint64_t stime = 0;
  int threads = 0;
  std::uint64_t start_time = 0;  // ticks after boot: tells a reused pid from the process we knew
  std::uint64_t vsize = 0;       // bytes; changes whenever the process maps something
  std::uint64_t rss_pages = 0;
};

// nullopt when the line is malformed. comm may contain spaces and ')' (it is the program's own
// choice), so the fields after it are found from the *last* ')'.
std::optional<ProcStat> parse_stat(std::string_view line);

// GpuLibrary bits of every file mapped in a /proc/PID/maps text.
std::uint32_t gpu_libraries_in_maps(std::string_view maps);

// Whether a /proc/PID/fd link target is a GPU device node: /dev/nvidia<N>, /dev/nvidiactl,
// /dev/nvidia-uvm, /dev/nvidia-caps/..., /dev/kfd, /dev/dri/renderD<N>, /dev/dxg.
bool is_gpu_device_path(std::string_view target);

// Whether holding `device` means the process has a GPU context (a particular device), not just a
// conversation with the driver: /dev/nvidia<N>, /dev/kfd, /dev/dri/renderD<N>, /dev/dxg.
bool is_gpu_context_device(std::string_view device);

// The index N of /dev/nvidia<N>, or nullopt.
std::optional<int> nvidia_minor(std::string_view device);

}  // namespace gpudoctor::watch
