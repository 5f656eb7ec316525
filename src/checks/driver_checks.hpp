// The two halves of driver_checks() (declared in check.hpp): the driver API's answers
// (driver_checks.cpp) and per-GPU health from NVML (gpu_checks.cpp).
#pragma once

#include <span>

#include <checks/check.hpp>

namespace gpudoctor::checks {

std::span<const Check> driver_api_checks();
std::span<const Check> gpu_checks();

}  // namespace gpudoctor::checks
