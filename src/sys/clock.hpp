// The wall clock, behind one function so nothing below cli/ reads it.
#pragma once

#include <string>

namespace gpudoctor::sys {

// "2026-12-02T14:24:00Z"
std::string now_utc_iso8601();

// Seconds since the Unix epoch, with sub-second precision (Prometheus timestamps).
double now_unix_seconds();

}  // namespace gpudoctor::sys
