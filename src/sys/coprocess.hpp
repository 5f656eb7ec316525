// Coprocess: a long-lived helper child spoken to in lines, for work that must stay out of our
// address space but is asked many times (NVML sampled while a run is watched). Unlike run_process,
// which runs a helper once to its end, a coprocess answers request after request until it is
// stopped.
//
// The child runs in its own process group (a Ctrl-C meant for the watched job does not reach it),
// dies with us (PR_SET_PDEATHSIG), has its stderr sent to /dev/null (a vendor library's chatter must
// not land in the user's terminal) and reads and writes one socket as stdin and stdout. Writes to a
// dead child fail with an Error, never with SIGPIPE. Every wait is bounded by the caller.
//
// Thread-safety: none; one owner, one thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/error.hpp>

namespace gpudoctor::sys {

enum class LineStatus { line, timeout, closed };

struct Received {
  LineStatus status = LineStatus::timeout;
  std::string line;  // without its '\n'; set when status == line
};

class Coprocess {
 public:
  // Starts argv (argv[0] searched in PATH when it has no '/'). An Error when it cannot be started.
  static Expected<Coprocess> start(const std::vector<std::string>& argv,
                                   std::optional<std::vector<std::string>> env = std::nullopt);

  Coprocess(Coprocess&& other) noexcept;
  Coprocess& operator=(Coprocess&& other) noexcept;
  Coprocess(const Coprocess&) = delete;
  Coprocess& operator=(const Coprocess&) = delete;
  ~Coprocess();

  int pid() const { return m_pid; }
  bool running() const { return m_pid > 0; }

  // Writes `line` and a '\n'. An Error when the child has closed its end or exited.
  Expected<bool> send(std::string_view line);
  // The next line, waiting at most `wait` for it. `closed` once the child closed its output (it
  // exited or crashed: stop() says how). A line longer than `max_line` bytes closes the channel.
  Received receive(std::chrono::milliseconds wait, std::size_t max_line = 4u << 20);

  // Ends the child: closes its input, gives it `grace` to exit, then kills its process group, and
  // reaps it. Returns how it ended ("exited with status 0", "killed by SIGSEGV"). Idempotent: later
  // calls return the same text.
  std::string stop(std::chrono::milliseconds grace = std::chrono::milliseconds(100));

 private:
  Coprocess(int pid, int fd) : m_pid(pid), m_fd(fd) {}

  int m_pid = -1;
  int m_fd = -1;
  std::string m_buffer;
  std::string m_ended;
};

}  // namespace gpudoctor::sys
