// Running a child process with a deadline: the only way gpudoctor executes anything (Python
// interpreters for sys.path, itself for the driver probe). The child gets its own process group, so
// a timeout kills it and everything it started; output is captured up to a bound; a child that
// crashes or hangs becomes a ProcessResult saying so, never a hung or crashed gpudoctor.
// Thread-safety: run_process may be called from several threads at once (interpreters are probed
// in parallel); it does not touch global state besides fork/exec.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <sys/error.hpp>

namespace gpudoctor::sys {

struct ProcessOptions {
  std::vector<std::string> argv;                 // argv[0] is searched in PATH when it has no '/'
  std::optional<std::vector<std::string>> env;   // "NAME=VALUE" each; nullopt inherits ours
  std::string cwd;                               // "" keeps ours
  std::chrono::milliseconds timeout{5000};
  std::size_t output_limit = 16u << 20;          // per stream; the rest is drained and dropped
  std::string stdin_data;                        // written, then stdin is closed
};

struct ProcessResult {
  int exit_code = -1;     // valid when term_signal == 0 and !timed_out
  int term_signal = 0;    // the signal that ended it (SIGSEGV for a crashing library)
  bool timed_out = false; // killed at the deadline
  std::string out;
  std::string err;
  bool out_truncated = false;
  bool err_truncated = false;
  double wall_ms = 0;
  bool ok() const { return !timed_out && term_signal == 0 && exit_code == 0; }
};

// An Error only when the child could not be started at all (no such program, fork failed).
Expected<ProcessResult> run_process(const ProcessOptions& options);

// This program's own executable (/proc/self/exe), for re-executing itself in a child.
Expected<std::string> self_executable();

// The name of a signal ("SIGSEGV").
std::string signal_name(int sig);

}  // namespace gpudoctor::sys
