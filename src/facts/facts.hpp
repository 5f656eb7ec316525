// Facts: everything the probes learned about one machine, one struct per layer. Checks read it; the
// JSON form is `gpudoctor facts --json`, and `gpudoctor check --facts FILE` diagnoses such a dump.
#pragma once

#include <string>

#include <facts/driver_facts.hpp>
#include <facts/environment_facts.hpp>
#include <facts/framework_facts.hpp>

namespace gpudoctor::facts {

inline constexpr int k_facts_schema_version = 1;

struct MetaFacts {
  Known<std::string> hostname;   // /proc/sys/kernel/hostname of the (captured) machine
  Known<std::string> os_pretty_name;  // /etc/os-release PRETTY_NAME
  std::string root = "/";        // the root the facts were read under
  bool from_text = false;        // read from a pasted text (explain), not probed on a machine
  bool operator==(const MetaFacts&) const = default;
};

struct Facts {
  MetaFacts meta;
  EnvironmentFacts environment;
  DriverFacts driver;
  FrameworkFacts framework;
  bool operator==(const Facts&) const = default;
};

void to_json(nlohmann::json& j, const Facts& f);
void from_json(const nlohmann::json& j, Facts& f);

}  // namespace gpudoctor::facts
