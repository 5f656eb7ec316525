#include <sys/clock.hpp>

#include <ctime>

namespace gpudoctor::sys {

std::string now_utc_iso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gpudoctor::sys
