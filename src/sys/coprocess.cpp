#include <sys/coprocess.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <sys/subprocess.hpp>

extern char** environ;

namespace gpudoctor::sys {
namespace {

using Clock = std::chrono::steady_clock;

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by " + signal_name(WTERMSIG(status));
  return "ended";
}

}  // namespace

Expected<Coprocess> Coprocess::start(const std::vector<std::string>& argv, std::optional<std::vector<std::string>> env) {
  if (argv.empty()) return Error{ErrorCode::invalid, "coprocess: empty argv"};
  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  std::vector<std::string> argv_storage = argv;
  std::vector<char*> args;
  for (auto& a : argv_storage) args.push_back(a.data());
  args.push_back(nullptr);
  std::vector<std::string> env_storage = env.value_or(std::vector<std::string>{});
  std::vector<char*> envp;
  for (auto& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);

  int sv[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return error_from_errno(errno, "socketpair");
  int report[2] = {-1, -1};
  if (::pipe2(report, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(sv[0]), ::close(sv[1]);
    return error_from_errno(e, "pipe");
  }
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    ::close(sv[0]), ::close(sv[1]), ::close(report[0]), ::close(report[1]);
    return error_from_errno(e, "fork");
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before the line above
    ::dup2(sv[1], STDIN_FILENO);
    ::dup2(sv[1], STDOUT_FILENO);
    int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, STDERR_FILENO);
    struct sigaction sa {};
    sa.sa_handler = SIG_DFL;
    for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT, SIGHUP, SIGWINCH}) ::sigaction(s, &sa, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execvpe(args[0], args.data(), env ? envp.data() : environ);
    int e = errno;
    (void)!::write(report[1], &e, sizeof e);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also in the parent: no race with an early kill
  ::close(sv[1]);
  ::close(report[1]);
  int exec_errno = 0;
  ssize_t n;
  do {
    n = ::read(report[0], &exec_errno, sizeof exec_errno);
  } while (n < 0 && errno == EINTR);
  ::close(report[0]);
  if (n == sizeof exec_errno) {
    int status;
    ::waitpid(pid, &status, 0);
    ::close(sv[0]);
    return error_from_errno(exec_errno, "exec " + argv[0]);
  }
  return Coprocess(pid, sv[0]);
}

Coprocess::Coprocess(Coprocess&& other) noexcept
    : m_pid(other.m_pid), m_fd(other.m_fd), m_buffer(std::move(other.m_buffer)), m_ended(std::move(other.m_ended)) {
  other.m_pid = -1;
  other.m_fd = -1;
}

Coprocess& Coprocess::operator=(Coprocess&& other) noexcept {
  if (this != &other) {
    stop();
    m_pid = other.m_pid;
    m_fd = other.m_fd;
    m_buffer = std::move(other.m_buffer);
    m_ended = std::move(other.m_ended);
    other.m_pid = -1;
    other.m_fd = -1;
  }
  return *this;
}

Coprocess::~Coprocess() { stop(std::chrono::milliseconds(0)); }

Expected<bool> Coprocess::send(std::string_view line) {
  if (m_fd < 0) return Error{ErrorCode::unavailable, "the helper has stopped"};
  std::string data(line);
  data += '\n';
  std::size_t done = 0;
  while (done < data.size()) {
    // MSG_NOSIGNAL: a dead child is an EPIPE here, not a SIGPIPE that would end us.
    ssize_t w = ::send(m_fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR) continue;
      return error_from_errno(errno, "write to helper");
    }
    done += static_cast<std::size_t>(w);
  }
  return true;
}

Received Coprocess::receive(std::chrono::milliseconds wait, std::size_t max_line) {
  const auto deadline = Clock::now() + wait;
  while (true) {
    if (auto nl = m_buffer.find('\n'); nl != std::string::npos) {
      Received r{LineStatus::line, m_buffer.substr(0, nl)};
      m_buffer.erase(0, nl + 1);
      return r;
    }
    if (m_fd < 0) return {LineStatus::closed, {}};
    if (m_buffer.size() > max_line) {
      ::shutdown(m_fd, SHUT_RDWR);
      m_buffer.clear();
      return {LineStatus::closed, {}};
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{m_fd, POLLIN, 0};
    int rc = ::poll(&p, 1, static_cast<int>(std::max<long long>(0, left)));
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) return {LineStatus::timeout, {}};
    char chunk[65536];
    ssize_t got = ::recv(m_fd, chunk, sizeof chunk, 0);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) return {LineStatus::closed, {}};
    m_buffer.append(chunk, static_cast<std::size_t>(got));
  }
}

std::string Coprocess::stop(std::chrono::milliseconds grace) {
  if (m_pid <= 0) return m_ended;
  if (m_fd >= 0) {
    ::close(m_fd);  // EOF on its stdin: a well-behaved helper exits now
    m_fd = -1;
  }
  int status = 0;
  const auto deadline = Clock::now() + grace;
  pid_t w = 0;
  while ((w = ::waitpid(m_pid, &status, WNOHANG)) == 0 && Clock::now() < deadline) ::usleep(1000);
  if (w == 0) {
    ::kill(-m_pid, SIGKILL);
    while ((w = ::waitpid(m_pid, &status, 0)) < 0 && errno == EINTR) {
    }
    m_ended = w == m_pid ? describe_status(status) + " (stopped)" : "stopped";
  } else {
    m_ended = w == m_pid ? describe_status(status) : "ended";
  }
  ::kill(-m_pid, SIGKILL);  // anything it left behind in its group
  m_pid = -1;
  return m_ended;
}

}  // namespace gpudoctor::sys
