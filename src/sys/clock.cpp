#include <sys/clock.hpp>

#include <chrono>
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

namespace gpudoctor::sys {

double now_unix_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace gpudoctor::sys
