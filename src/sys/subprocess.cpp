#include <sys/subprocess.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

extern char** environ;

namespace gpudoctor::sys {
namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
  void close_both() {
    for (int& f : fd) {
      if (f >= 0) ::close(f);
      f = -1;
    }
  }
};

// Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
struct ExecPlan {
  std::vector<std::string> argv_storage;
  std::vector<char*> argv;
  std::vector<std::string> env_storage;
  std::vector<char*> envp;
  bool has_env = false;
};

void child_exec(const ExecPlan& plan, const ProcessOptions& o, int in_fd, int out_fd, int err_fd, int report_fd) {
  ::setpgid(0, 0);
  ::dup2(in_fd, STDIN_FILENO);
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  // Default signal dispositions, whatever the parent had.
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT}) ::sigaction(s, &sa, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (!o.cwd.empty() && ::chdir(o.cwd.c_str()) != 0) {
    int e = errno;
    (void)!::write(report_fd, &e, sizeof e);
    ::_exit(127);
  }
  char** envp = plan.has_env ? const_cast<char**>(plan.envp.data()) : environ;
  ::execvpe(plan.argv[0], const_cast<char**>(plan.argv.data()), envp);
  int e = errno;
  (void)!::write(report_fd, &e, sizeof e);
  ::_exit(127);
}

}  // namespace

Expected<ProcessResult> run_process(const ProcessOptions& o) {
  if (o.argv.empty()) return Error{ErrorCode::invalid, "run_process: empty argv"};
  ExecPlan plan;
  plan.argv_storage = o.argv;
  for (auto& a : plan.argv_storage) plan.argv.push_back(a.data());
  plan.argv.push_back(nullptr);
  if (o.env) {
    plan.has_env = true;
    plan.env_storage = *o.env;
    for (auto& e : plan.env_storage) plan.envp.push_back(e.data());
    plan.envp.push_back(nullptr);
  }

  Pipe in, out, err, report;
  if (!in.open() || !out.open() || !err.open() || !report.open()) {
    int e = errno;
    in.close_both(), out.close_both(), err.close_both(), report.close_both();
    return error_from_errno(e, "pipe");
  }
  auto start = Clock::now();
  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    in.close_both(), out.close_both(), err.close_both(), report.close_both();
    return error_from_errno(e, "fork");
  }
  if (pid == 0) child_exec(plan, o, in.fd[0], out.fd[1], err.fd[1], report.fd[1]);
  ::setpgid(pid, pid);  // also in the parent: no race with an early kill
  ::close(in.fd[0]), ::close(out.fd[1]), ::close(err.fd[1]), ::close(report.fd[1]);
  in.fd[0] = out.fd[1] = err.fd[1] = report.fd[1] = -1;

  // exec succeeded iff the report pipe closes without data (it is close-on-exec).
  int exec_errno = 0;
  ssize_t n;
  do {
    n = ::read(report.fd[0], &exec_errno, sizeof exec_errno);
  } while (n < 0 && errno == EINTR);
  ::close(report.fd[0]);
  if (n == sizeof exec_errno) {
    int status;
    ::waitpid(pid, &status, 0);
    in.close_both(), out.close_both(), err.close_both();
    return error_from_errno(exec_errno, "exec " + o.argv[0]);
  }

  ProcessResult r;
  std::size_t written = 0;
  int in_fd = in.fd[1];
  ::fcntl(in_fd, F_SETFL, O_NONBLOCK);
  if (o.stdin_data.empty()) {
    ::close(in_fd);
    in_fd = -1;
  }
  int fds[2] = {out.fd[0], err.fd[0]};
  std::string* bufs[2] = {&r.out, &r.err};
  bool* truncs[2] = {&r.out_truncated, &r.err_truncated};
  auto deadline = start + o.timeout;
  char chunk[65536];
  while (fds[0] >= 0 || fds[1] >= 0) {
    auto now = Clock::now();
    if (now >= deadline) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    int wait_ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
    std::array<pollfd, 3> p{};
    int np = 0;
    for (int i = 0; i < 2; ++i) {
      if (fds[i] >= 0) p[np++] = {fds[i], POLLIN, 0};
    }
    if (in_fd >= 0) p[np++] = {in_fd, POLLOUT, 0};
    int rc = ::poll(p.data(), static_cast<nfds_t>(np), wait_ms);
    if (rc < 0 && errno != EINTR) break;
    for (int k = 0; k < np; ++k) {
      if (p[k].revents == 0) continue;
      if (p[k].fd == in_fd) {
        ssize_t w = ::write(in_fd, o.stdin_data.data() + written, o.stdin_data.size() - written);
        if (w > 0) written += static_cast<std::size_t>(w);
        if (w < 0 && errno != EAGAIN && errno != EINTR) written = o.stdin_data.size();
        if (written >= o.stdin_data.size()) {
          ::close(in_fd);
          in_fd = -1;
        }
        continue;
      }
      for (int i = 0; i < 2; ++i) {
        if (p[k].fd != fds[i]) continue;
        ssize_t got = ::read(fds[i], chunk, sizeof chunk);
        if (got > 0) {
          auto room = o.output_limit - std::min(o.output_limit, bufs[i]->size());
          bufs[i]->append(chunk, std::min<std::size_t>(room, static_cast<std::size_t>(got)));
          if (static_cast<std::size_t>(got) > room) *truncs[i] = true;
        } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
          ::close(fds[i]);
          fds[i] = -1;
        }
      }
    }
  }
  for (int f : fds) {
    if (f >= 0) ::close(f);
  }
  if (in_fd >= 0) ::close(in_fd);
  int status = 0;
  // The pipes closed (or we killed it): reap; a child that closed its pipes but keeps running is
  // killed at the deadline.
  while (true) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (Clock::now() >= deadline && !r.timed_out) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
    }
    ::usleep(1000);
  }
  ::kill(-pid, SIGKILL);  // anything the child left behind in its group
  r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status) && !r.timed_out) r.term_signal = WTERMSIG(status);
  return r;
}

Expected<std::string> self_executable() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n < 0) return error_from_errno(errno, "readlink /proc/self/exe");
  return std::string(buf, static_cast<std::size_t>(n));
}

std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

}  // namespace gpudoctor::sys
