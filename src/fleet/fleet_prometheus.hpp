// The joined fleet in Prometheus' text format (`fleet --prometheus FILE`): node states, each node's
// errors and warnings, the fleet.* findings and how many values each compared attribute takes.
// Pure function; thread-safe.
#pragma once

#include <string>

#include <fleet/join.hpp>

namespace gpudoctor::fleet {

std::string fleet_metrics(const Fleet& fleet, double unix_time);

}  // namespace gpudoctor::fleet
