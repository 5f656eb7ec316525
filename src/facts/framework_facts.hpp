// The facts of the framework and toolchain layer: Python environments, the framework builds in them,
// what the dynamic loader would resolve, and the kernels in their fatbinaries. Filled in by the
// framework-layer work; empty until then.
#pragma once

#include <nlohmann/json.hpp>

namespace gpudoctor::facts {

struct FrameworkFacts {
  bool operator==(const FrameworkFacts&) const = default;
};

inline void to_json(nlohmann::json& j, const FrameworkFacts&) { j = nlohmann::json::object(); }
inline void from_json(const nlohmann::json&, FrameworkFacts&) {}

}  // namespace gpudoctor::facts
