#include <sys/child.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>

namespace gpudoctor::sys {
namespace {

using Clock = std::chrono::steady_clock;

// Output a grandchild writes after the child itself exited is still relayed, until the pipes close
// or stay quiet this long (a daemon that keeps our pipe open must not keep us waiting forever).
constexpr auto k_drain_quiet = std::chrono::milliseconds(250);
constexpr std::size_t k_chunk = 64 * 1024;

int g_signal_fd = -1;  // write end of the self-pipe; the handler's only state

struct SignalNote {
  int sig;
  int code;  // si_code: <= 0 when another process sent it (kill, sigqueue), > 0 from the kernel
};

void note_signal(int sig, siginfo_t* info, void* /*context*/) {
  int saved = errno;
  SignalNote n{sig, info != nullptr ? info->si_code : SI_USER};
  if (g_signal_fd >= 0) (void)!::write(g_signal_fd, &n, sizeof n);
  errno = saved;
}

// Turns the signals we forward (and SIGCHLD, SIGWINCH) into records on a pipe that the relay loop
// polls, so no work happens inside a handler; restores the previous dispositions on destruction.
class SignalRelay {
 public:
  SignalRelay() {
    if (::pipe2(m_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
    g_signal_fd = m_pipe[1];
    struct sigaction sa {};
    sa.sa_sigaction = note_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (std::size_t i = 0; i < k_signals.size(); ++i) ::sigaction(k_signals[i], &sa, &m_old[i]);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &m_old_pipe);
  }
  ~SignalRelay() {
    for (std::size_t i = 0; i < k_signals.size(); ++i) ::sigaction(k_signals[i], &m_old[i], nullptr);
    ::sigaction(SIGPIPE, &m_old_pipe, nullptr);
    g_signal_fd = -1;
    for (int fd : m_pipe) {
      if (fd >= 0) ::close(fd);
    }
  }
  SignalRelay(const SignalRelay&) = delete;
  SignalRelay& operator=(const SignalRelay&) = delete;

  bool ok() const { return m_pipe[0] >= 0; }
  int fd() const { return m_pipe[0]; }
  static constexpr std::array k_signals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGCHLD};

 private:
  int m_pipe[2] = {-1, -1};
  std::array<struct sigaction, k_signals.size()> m_old{};
  struct sigaction m_old_pipe {};
};

// Our terminal in raw mode for the child's lifetime; restored however we leave.
class RawTerminal {
 public:
  explicit RawTerminal(int fd) : m_fd(fd) {
    if (::tcgetattr(fd, &m_saved) != 0) return;
    struct termios raw = m_saved;
    ::cfmakeraw(&raw);
    if (::tcsetattr(fd, TCSANOW, &raw) == 0) m_active = true;
  }
  ~RawTerminal() {
    if (m_active) ::tcsetattr(m_fd, TCSAFLUSH, &m_saved);
  }
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;

 private:
  int m_fd;
  struct termios m_saved {};
  bool m_active = false;
};

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& o) noexcept : m_fd(o.m_fd) { o.m_fd = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      m_fd = o.m_fd;
      o.m_fd = -1;
    }
    return *this;
  }
  int get() const { return m_fd; }
  void reset() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }

 private:
  int m_fd = -1;
};

struct Pty {
  Fd master;
  Fd slave;
};

Expected<Pty> open_pty() {
  Pty p;
  p.master = Fd(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (p.master.get() < 0) return error_from_errno(errno, "posix_openpt");
  if (::grantpt(p.master.get()) != 0 || ::unlockpt(p.master.get()) != 0) return error_from_errno(errno, "unlockpt");
  char name[PATH_MAX];
  if (::ptsname_r(p.master.get(), name, sizeof name) != 0) return error_from_errno(errno, "ptsname");
  p.slave = Fd(::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (p.slave.get() < 0) return error_from_errno(errno, std::string("open ") + name);
  // The child's terminal starts with our terminal's settings and size.
  struct termios tio {};
  int tty = ::isatty(STDIN_FILENO) == 1 ? STDIN_FILENO : STDOUT_FILENO;
  if (::tcgetattr(tty, &tio) == 0) ::tcsetattr(p.slave.get(), TCSANOW, &tio);
  struct winsize ws {};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) ::ioctl(p.slave.get(), TIOCSWINSZ, &ws);
  ::fcntl(p.master.get(), F_SETFL, ::fcntl(p.master.get(), F_GETFL) | O_NONBLOCK);
  return p;
}

// Writes everything, waiting when the reader is slow; the errno of a failed write, else 0.
int write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n >= 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN) {
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, -1);
      continue;
    }
    return errno;
  }
  return 0;
}

// Prepared before fork: after it, the child calls only async-signal-safe functions.
struct ExecPlan {
  std::vector<std::string> storage;
  std::vector<char*> argv;
  int stdin_fd = -1;   // -1: inherit ours
  int stdout_fd = -1;
  int stderr_fd = -1;
  int ctty_fd = -1;    // the pty slave to make our controlling terminal, -1 for none
  int report_fd = -1;  // receives errno if exec fails
};

[[noreturn]] void exec_child(const ExecPlan& plan) {
  if (plan.ctty_fd >= 0) {
    ::setsid();
    ::ioctl(plan.ctty_fd, TIOCSCTTY, 0);
  }
  if (plan.stdin_fd >= 0) ::dup2(plan.stdin_fd, STDIN_FILENO);
  if (plan.stdout_fd >= 0) ::dup2(plan.stdout_fd, STDOUT_FILENO);
  if (plan.stderr_fd >= 0) ::dup2(plan.stderr_fd, STDERR_FILENO);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int s : SignalRelay::k_signals) ::sigaction(s, &dfl, nullptr);
  ::sigaction(SIGPIPE, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execvp(plan.argv[0], plan.argv.data());
  int e = errno;
  (void)!::write(plan.report_fd, &e, sizeof e);
  ::_exit(127);
}

struct Source {
  Fd fd;
  int sink;  // our fd the bytes are copied to
  OutputStream stream;
};

}  // namespace

TerminalMode terminal_mode_for_stdout() {
  return ::isatty(STDOUT_FILENO) == 1 ? TerminalMode::pty : TerminalMode::pipes;
}

Expected<ChildExit> run_attached(const AttachedOptions& o, ChildObserver& observer) {
  if (o.argv.empty()) return Error{ErrorCode::invalid, "run_attached: empty command"};
  SignalRelay signals;
  if (!signals.ok()) return error_from_errno(errno, "pipe");

  const bool use_pty = o.mode == TerminalMode::pty;
  const bool relay_stdin = use_pty && ::isatty(STDIN_FILENO) == 1;
  std::optional<Pty> pty;
  if (use_pty) {
    auto p = open_pty();
    if (!p) return p.error();
    pty = std::move(p.value());
  }
  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  int report[2] = {-1, -1};
  const bool err_on_pty = use_pty && ::isatty(STDERR_FILENO) == 1;
  if ((!use_pty && ::pipe2(out_pipe, O_CLOEXEC) != 0) || (!err_on_pty && ::pipe2(err_pipe, O_CLOEXEC) != 0) ||
      ::pipe2(report, O_CLOEXEC) != 0) {
    int e = errno;
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], report[0], report[1]}) {
      if (fd >= 0) ::close(fd);
    }
    return error_from_errno(e, "pipe");
  }
  Fd out_r(out_pipe[0]), out_w(out_pipe[1]), err_r(err_pipe[0]), err_w(err_pipe[1]);
  Fd report_r(report[0]), report_w(report[1]);

  ExecPlan plan;
  plan.storage = o.argv;
  for (auto& a : plan.storage) plan.argv.push_back(a.data());
  plan.argv.push_back(nullptr);
  const int slave = pty ? pty->slave.get() : -1;
  plan.ctty_fd = slave;
  plan.stdin_fd = relay_stdin ? slave : -1;
  plan.stdout_fd = use_pty ? slave : out_w.get();
  plan.stderr_fd = err_on_pty ? slave : err_w.get();
  plan.report_fd = report_w.get();

  pid_t pid = ::fork();
  if (pid < 0) return error_from_errno(errno, "fork");
  if (pid == 0) exec_child(plan);
  out_w.reset();
  err_w.reset();
  report_w.reset();
  if (pty) pty->slave.reset();

  // exec succeeded iff the report pipe closes without data (it is close-on-exec).
  int exec_errno = 0;
  ssize_t n;
  do {
    n = ::read(report_r.get(), &exec_errno, sizeof exec_errno);
  } while (n < 0 && errno == EINTR);
  if (n == sizeof exec_errno) {
    int status;
    ::waitpid(pid, &status, 0);
    return error_from_errno(exec_errno, o.argv[0]);
  }
  report_r.reset();
  observer.on_started(pid);

  std::optional<RawTerminal> raw;
  if (relay_stdin) raw.emplace(STDIN_FILENO);

  std::vector<Source> sources;
  if (pty) sources.push_back({std::move(pty->master), STDOUT_FILENO, OutputStream::out});
  if (out_r.get() >= 0) sources.push_back({std::move(out_r), STDOUT_FILENO, OutputStream::out});
  if (err_r.get() >= 0) sources.push_back({std::move(err_r), STDERR_FILENO, OutputStream::err});
  const int master = pty ? sources.front().fd.get() : -1;

  bool stdin_open = relay_stdin;
  std::string to_child;  // keystrokes not yet accepted by the pty
  bool alive = true;
  ChildExit result;
  auto reap = [&] {
    int status = 0;
    pid_t w;
    do {
      w = ::waitpid(pid, &status, WNOHANG);
    } while (w < 0 && errno == EINTR);
    if (w != pid) return;
    alive = false;
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  };
  auto forward = [&](const SignalNote& s) {
    if (s.sig == SIGCHLD) return reap();
    if (s.sig == SIGWINCH) {
      // In pipe mode the child shares our terminal and the kernel tells it itself.
      struct winsize ws {};
      if (master >= 0 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) ::ioctl(master, TIOCSWINSZ, &ws);
      return;
    }
    if (!alive) return;
    const bool from_process = s.code <= 0;
    if (!use_pty) {
      // A terminal's Ctrl-C or hang-up went to our whole process group, the child included.
      if (from_process) ::kill(pid, s.sig);
    } else {
      ::kill(from_process ? pid : -pid, s.sig);
    }
  };

  std::string buf(k_chunk, '\0');
  auto next_tick = Clock::now() + o.tick;
  auto drain_until = Clock::time_point::max();
  while (true) {
    auto now = Clock::now();
    bool any_open = std::any_of(sources.begin(), sources.end(), [](const Source& s) { return s.fd.get() >= 0; });
    if (!alive && (!any_open || now >= drain_until)) break;
    auto until = alive ? next_tick : drain_until;
    int timeout_ms = static_cast<int>(
        std::max<long long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count() + 1));

    std::vector<pollfd> p;
    p.push_back({signals.fd(), POLLIN, 0});
    for (const auto& s : sources) p.push_back({s.fd.get(), POLLIN, 0});  // fd -1 is ignored by poll
    std::size_t stdin_slot = p.size();
    p.push_back({stdin_open && to_child.empty() ? STDIN_FILENO : -1, POLLIN, 0});
    std::size_t master_out_slot = p.size();
    p.push_back({!to_child.empty() ? master : -1, POLLOUT, 0});
    int rc = ::poll(p.data(), static_cast<nfds_t>(p.size()), timeout_ms);
    if (rc < 0 && errno != EINTR) break;

    if (p[0].revents != 0) {
      SignalNote note{};
      while (::read(signals.fd(), &note, sizeof note) == sizeof note) forward(note);
    }
    for (std::size_t i = 0; i < sources.size(); ++i) {
      auto& s = sources[i];
      if (s.fd.get() < 0 || p[i + 1].revents == 0) continue;
      ssize_t got = ::read(s.fd.get(), buf.data(), buf.size());
      if (got > 0) {
        std::string_view bytes(buf.data(), static_cast<std::size_t>(got));
        observer.on_output(s.stream, bytes);
        // Our reader went away: close the child's end too, so it meets the same EPIPE/SIGPIPE.
        if (write_all(s.sink, bytes) == EPIPE && s.fd.get() != master) s.fd.reset();
        if (!alive) drain_until = Clock::now() + k_drain_quiet;
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        // EIO on a pty master: every slave descriptor is closed.
        s.fd.reset();
      }
    }
    if (p[stdin_slot].revents != 0) {
      ssize_t got = ::read(STDIN_FILENO, buf.data(), buf.size());
      if (got > 0) {
        to_child.assign(buf.data(), static_cast<std::size_t>(got));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        stdin_open = false;
      }
    }
    if (p[master_out_slot].revents != 0 && master >= 0) {
      ssize_t w = ::write(master, to_child.data(), to_child.size());
      if (w > 0) to_child.erase(0, static_cast<std::size_t>(w));
      if (w < 0 && errno != EINTR && errno != EAGAIN) to_child.clear();
    }
    now = Clock::now();
    if (alive && now >= next_tick) {
      reap();  // a belt to SIGCHLD's braces: costs one syscall per tick
      if (alive) observer.on_tick();
      next_tick += o.tick;
      if (next_tick <= now) next_tick = now + o.tick;
    }
    if (!alive && drain_until == Clock::time_point::max()) drain_until = Clock::now() + k_drain_quiet;
  }
  if (alive) {
    // The loop only ends early on a poll failure: do not leave the child behind unreaped.
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace gpudoctor::sys
