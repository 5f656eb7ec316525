// The driver probe: NVML, the CUDA driver API and the CUDA runtime, asked by a child process
// (`gpudoctor __probe-driver nvml LIB cuda LIB cudart LIB`, one thread per library, which prints
// each library's facts as JSON), all three at once, with a deadline; what that shared child leaves
// unanswered is asked again in one child per library. A library that hangs, crashes or is missing symbols yields facts
// that say so; the calling process never loads a vendor library.
//
// Under a replayed root nothing is loaded: the answers `gpudoctor capture` recorded in
// /.gpudoctor/driver.json are read back instead (hwloc records its "nofile" facts the same way).
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <facts/driver_facts.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe {

inline constexpr std::string_view k_recorded_driver_path = "/.gpudoctor/driver.json";
inline constexpr std::string_view k_probe_driver_command = "__probe-driver";

// A library "none" is not asked at all.
struct DriverProbeOptions {
  std::chrono::milliseconds timeout{5000};
  std::string nvml_library = "libnvidia-ml.so.1";  // GPUDOCTOR_NVML_LIBRARY
  std::string cuda_library = "libcuda.so.1";       // GPUDOCTOR_CUDA_LIBRARY
  std::string cudart_library;  // GPUDOCTOR_CUDART_LIBRARY; "" finds the toolkit's newest libcudart.so.N
};

// Asks the three libraries in child processes. `fs` is the live machine (possibly recording for a
// capture): the toolkit's libcudart is looked up through it, and the command lines of the GPU's
// processes are read from /proc/PID/cmdline through it.
facts::DriverFacts probe_driver(const sys::FileSystem& fs, const DriverProbeOptions& options);

// The answers recorded in a captured tree; every run is not_run when there are none.
facts::DriverFacts read_recorded_driver(const sys::FileSystem& fs);

// The child's side: asks `which` ("nvml", "cuda", "cudart") and prints its JSON to `out`.
// Returns the exit status (2 for an unknown `which`).
int run_driver_probe_child(std::string_view which, const std::string& library, std::ostream& out);
// The shared child: asks each (which, library) on its own thread and prints one tagged line per
// answer ("@gpudoctor-answer WHICH MS JSON") as soon as it has it.
int run_driver_probe_children(const std::vector<std::pair<std::string, std::string>>& asks, std::ostream& out);

}  // namespace gpudoctor::probe
