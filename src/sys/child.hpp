// An attached child: runs a command as if the caller were not there, for `gpudoctor run`. Unlike
// run_process (a captured helper with a deadline), the child owns the terminal:
//
// - TerminalMode::pty (the caller's stdout is a terminal): the child gets a fresh pseudo-terminal as
//   its controlling terminal, sized like ours and kept so on SIGWINCH; our terminal is put in raw
//   mode while it runs (restored on every way out), so keystrokes, Ctrl-C included, travel as bytes
//   to the child's line discipline exactly as a terminal would deliver them. Progress bars that ask
//   isatty() still draw.
// - TerminalMode::pipes: stdin is inherited unchanged; stdout and stderr go through pipes. The child
//   stays in our process group, so the terminal's own Ctrl-C reaches it directly.
//
// Every byte the child writes is relayed unchanged to our stdout/stderr as it arrives (blocking on a
// slow reader, which slows the child just as a slow terminal would) and also shown to the observer.
// SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to us by another process are forwarded to the child; ones
// the terminal already delivered to the child are not sent twice. When our stdout is a closed pipe,
// the child's pipe is closed too, so it gets its own SIGPIPE as it would without us.
//
// Thread-safety: one attached child per process at a time (it owns signal dispositions meanwhile).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include <sys/error.hpp>

namespace gpudoctor::sys {

enum class TerminalMode { pty, pipes };
enum class OutputStream { out, err };

struct ChildExit {
  int exit_code = 0;    // valid when term_signal == 0
  int term_signal = 0;  // the signal that ended it
  // What a POSIX shell reports as $?: the exit code, or 128 + the signal number.
  int shell_status() const { return term_signal != 0 ? 128 + term_signal : exit_code; }
};

// Called on the relaying thread; must not block for long (the child's output waits meanwhile).
class ChildObserver {
 public:
  virtual ~ChildObserver() = default;
  virtual void on_started(int pid) = 0;
  virtual void on_output(OutputStream stream, std::string_view bytes) = 0;
  // Every `tick` while the child runs.
  virtual void on_tick() = 0;
};

struct AttachedOptions {
  std::vector<std::string> argv;  // argv[0] is searched in PATH when it has no '/'
  TerminalMode mode = TerminalMode::pipes;
  std::chrono::milliseconds tick{500};
};

// The mode `gpudoctor run` uses: a pty when our stdout is a terminal.
TerminalMode terminal_mode_for_stdout();

// Runs the child to its end. An Error only when it could not be started (the ErrorCode says
// not_found or permission_denied, as a shell's 127 and 126).
Expected<ChildExit> run_attached(const AttachedOptions& options, ChildObserver& observer);

}  // namespace gpudoctor::sys
