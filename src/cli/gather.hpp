// Gathering facts for a command: every probe that applies to the machine. Files always; the live
// machine also gets the probes that load libraries or run interpreters (later layers add theirs
// here), while a captured tree replays what capture recorded of those.
#pragma once

#include <facts/facts.hpp>
#include <probe/python_probe.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::cli {

struct GatherOptions {
  int timeout_ms = 5000;  // per child-process probe
  std::vector<std::string> python;  // --python PATH: interpreters beyond the discovered ones
  probe::DeepImport deep = probe::DeepImport::off;
};

// Wall time of each probe, for `check --prometheus`.
struct GatherTimings {
  double files_s = 0;
  double python_s = 0;
  double driver_s = 0;
};

facts::Facts gather_facts(const sys::FileSystem& fs, const GatherOptions& options, GatherTimings* timings = nullptr);

}  // namespace gpudoctor::cli
