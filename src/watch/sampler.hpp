// Sampler: one reading of a process tree per call — CPU share, threads and RSS of every process
// (/proc/PID/stat), the GPU libraries it mapped (/proc/PID/maps), the GPU device nodes it holds
// open (/proc/PID/fd), plus whatever the GpuSource reports. Works with no NVML at all.
//
// Cost matters more than anything here (the watched job pays for it): maps, the largest file, is
// re-read only when the process's virtual size changed since the last read (every mmap changes it),
// and nothing is parsed that the verdict does not use.
//
// Thread-safety: none; one sampler per watched tree, called from one thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <sys/file_system.hpp>
#include <watch/gpu_source.hpp>
#include <watch/timeline.hpp>

namespace gpudoctor::watch {

struct SamplerOptions {
  long ticks_per_second = 100;  // sysconf(_SC_CLK_TCK)
  long page_size = 4096;        // sysconf(_SC_PAGESIZE)
};

class Sampler {
 public:
  // REQUIRES: `fs` and `gpu` outlive the sampler.
  Sampler(const sys::FileSystem& fs, int root_pid, GpuSource& gpu, SamplerOptions options);

  // The tree as it is now, stamped `t` seconds since the start. Empty processes once the root is gone.
  Sample sample(double t);

  // Every distinct executable (/proc/PID/exe) of the tree so far: the interpreters whose framework
  // builds the verdict's explanation should look at.
  const std::vector<std::string>& executables() const { return m_executables; }

 private:
  struct Seen {
    std::uint64_t start_time = 0;
    std::uint64_t cpu_ticks = 0;
    double t = 0;
    std::uint64_t maps_vsize = 0;
    std::uint32_t libraries = 0;
  };

  const sys::FileSystem& m_fs;
  int m_root;
  GpuSource& m_gpu;
  SamplerOptions m_options;
  std::map<int, Seen> m_seen;
  std::vector<std::string> m_executables;
};

}  // namespace gpudoctor::watch
