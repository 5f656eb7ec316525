// The facts of the driver layer: what NVML and the CUDA driver API answer when asked, in a child
// process (src/probe/driver_probe). Filled in by the driver-layer work; empty until then.
#pragma once

#include <nlohmann/json.hpp>

namespace gpudoctor::facts {

struct DriverFacts {
  bool operator==(const DriverFacts&) const = default;
};

inline void to_json(nlohmann::json& j, const DriverFacts&) { j = nlohmann::json::object(); }
inline void from_json(const nlohmann::json&, DriverFacts&) {}

}  // namespace gpudoctor::facts
