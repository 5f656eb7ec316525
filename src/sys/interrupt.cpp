#include <sys/interrupt.hpp>

#include <signal.h>
#include <time.h>

#include <array>
#include <cerrno>

namespace gpudoctor::sys {
namespace {

volatile sig_atomic_t g_interrupted = 0;
constexpr std::array k_signals = {SIGINT, SIGTERM, SIGHUP};
std::array<struct sigaction, k_signals.size()> g_old{};

void on_signal(int /*sig*/) { g_interrupted = 1; }

}  // namespace

Interrupt::Interrupt() {
  g_interrupted = 0;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // No SA_RESTART: the signal must cut the sleep short.
  for (std::size_t i = 0; i < k_signals.size(); ++i) ::sigaction(k_signals[i], &sa, &g_old[i]);
}

Interrupt::~Interrupt() {
  for (std::size_t i = 0; i < k_signals.size(); ++i) ::sigaction(k_signals[i], &g_old[i], nullptr);
}

bool Interrupt::wait_for(std::chrono::milliseconds duration) const {
  if (g_interrupted) return true;
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(duration).count();
  struct timespec ts {static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  ::nanosleep(&ts, nullptr);  // EINTR when a signal arrives: exactly the point
  return g_interrupted != 0;
}

bool Interrupt::interrupted() const { return g_interrupted != 0; }

}  // namespace gpudoctor::sys
