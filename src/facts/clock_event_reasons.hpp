// NVML's clock event ("throttle") reasons: the bits of nvmlDeviceGetCurrentClocksEventReasons
// (nvml.h nvmlClocksEventReason*, formerly nvmlClocksThrottleReason*), named for people. Shared by
// the driver layer's one-shot check and the run layer's verdict.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpudoctor::facts {

struct ClockEventReason {
  std::uint64_t bit;
  const char* name;
};

// The reasons that slow the GPU against the workload's will (GpuIdle 0x1, application clocks 0x2
// and SyncBoost 0x10 are normal and not listed).
inline constexpr ClockEventReason k_clock_event_reasons[] = {
    {0x4, "SW power cap (board power limit reached)"},
    {0x8, "HW slowdown (power brake or overheating, set by the board)"},
    {0x20, "SW thermal slowdown (GPU or memory over its maximum operating temperature)"},
    {0x40, "HW thermal slowdown (temperature too high)"},
    {0x80, "HW power brake slowdown (external power brake assertion)"},
};
// Reasons that mean trouble on their own; a power cap alone is normal under full load.
inline constexpr std::uint64_t k_clock_events_serious = 0x8 | 0x20 | 0x40 | 0x80;

// The names of the listed reasons set in `mask`, in table order.
inline std::vector<std::string> clock_event_reason_names(std::uint64_t mask) {
  std::vector<std::string> out;
  for (const auto& r : k_clock_event_reasons) {
    if ((mask & r.bit) != 0) out.emplace_back(r.name);
  }
  return out;
}

}  // namespace gpudoctor::facts
