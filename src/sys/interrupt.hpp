// Interrupt: waiting that Ctrl-C (SIGINT), SIGTERM or SIGHUP cuts short, for `gpudoctor watch`,
// which observes a process that is not its child and stops when told to. While an Interrupt
// exists those signals set a flag instead of ending the program; the old dispositions come back
// on destruction.
//
// Thread-safety: one Interrupt per process at a time.
#pragma once

#include <chrono>

namespace gpudoctor::sys {

class Interrupt {
 public:
  Interrupt();
  ~Interrupt();
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;

  // Sleeps for `duration` or until a signal arrives; true when one has arrived (now or before).
  bool wait_for(std::chrono::milliseconds duration) const;
  bool interrupted() const;
};

}  // namespace gpudoctor::sys
