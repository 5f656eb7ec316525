// Report: what every renderer turns into output: the findings (root cause first) plus the context
// that makes a report useful away from the machine (schema version, host, time, command) and,
// for machine-readable formats, the facts the findings were derived from.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <facts/finding.hpp>

namespace gpudoctor::render {

inline constexpr int k_report_schema_version = 1;

struct Report {
  std::string command;  // "check", "scan", "run", "explain"
  std::string host;
  std::string time;     // ISO 8601, UTC
  std::string root = "/";
  std::vector<facts::Finding> findings;
  nlohmann::json facts = nullptr;  // the facts (check), the timeline (run); null when none
  std::vector<std::string> notes;  // what was not looked at, and why
  // What a report with no finding means. decided: the checks looked and found nothing wrong.
  // unrecognised: nothing in the input could be read (explain), which says nothing about the machine.
  enum class Outcome { decided, unrecognised };
  Outcome outcome = Outcome::decided;
};

enum class ColorMode { never, always };

class Renderer {
 public:
  virtual ~Renderer() = default;
  virtual void render(const Report& report, std::ostream& out) const = 0;
};

}  // namespace gpudoctor::render
