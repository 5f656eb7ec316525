#include <sys/atomic_file.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

namespace gpudoctor::sys {

Expected<bool> write_file_atomically(const std::string& path, std::string_view content) {
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return error_from_errno(errno, "create " + tmp);
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return error_from_errno(err, "write " + tmp);
    }
    done += static_cast<std::size_t>(n);
  }
  int synced = ::fsync(fd);
  int sync_err = errno;
  int closed = ::close(fd);
  if (synced != 0 || closed != 0) {
    int err = synced != 0 ? sync_err : errno;
    ::unlink(tmp.c_str());
    return error_from_errno(err, "flush " + tmp);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return error_from_errno(err, "rename " + tmp + " to " + path);
  }
  return true;
}

}  // namespace gpudoctor::sys
