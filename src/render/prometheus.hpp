// Prometheus' text exposition format, as node_exporter's textfile collector reads it: `check
// --prometheus FILE` writes the findings, GPUs, driver and probe durations of one check, so that
// existing monitoring alerts on them. Names and labels follow Prometheus' naming conventions
// (gpudoctor_ prefix, base units, _info metrics for labels with value 1); every label value from a
// machine is escaped (backslash, quote, newline) and made valid UTF-8.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <facts/facts.hpp>
#include <render/report.hpp>

namespace gpudoctor::render {

// A label value escaped for the exposition format, valid UTF-8.
std::string prometheus_label(std::string_view value);

// Builds one metric family at a time: HELP and TYPE once, then its samples.
class PrometheusWriter {
 public:
  void family(std::string_view name, std::string_view type, std::string_view help);
  // labels: {name, value} pairs; values are escaped here.
  void sample(std::string_view name, const std::vector<std::pair<std::string_view, std::string>>& labels, double value);
  const std::string& text() const { return m_text; }

 private:
  std::string m_text;
};

struct ProbeDuration {
  std::string probe;  // "files", "python", "driver"
  double seconds = 0;
};

struct CheckMetrics {
  const Report* report = nullptr;
  const facts::Facts* facts = nullptr;
  std::vector<ProbeDuration> durations;
  double check_seconds = 0;
  double unix_time = 0;  // when the check ran
};

std::string check_metrics(const CheckMetrics& m);

}  // namespace gpudoctor::render
