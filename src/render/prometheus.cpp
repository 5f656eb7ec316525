#include <render/prometheus.hpp>

#include <fmt/format.h>

#include <map>
#include <tuple>

#include <util/text.hpp>

namespace gpudoctor::render {

std::string prometheus_label(std::string_view value) {
  std::string out;
  for (char c : util::sanitize_utf8(value)) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

void PrometheusWriter::family(std::string_view name, std::string_view type, std::string_view help) {
  m_text += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

void PrometheusWriter::sample(std::string_view name, const std::vector<std::pair<std::string_view, std::string>>& labels,
                              double value) {
  m_text += name;
  if (!labels.empty()) {
    m_text += '{';
    bool first = true;
    for (const auto& [k, v] : labels) {
      if (!first) m_text += ',';
      first = false;
      m_text += fmt::format("{}=\"{}\"", k, prometheus_label(v));
    }
    m_text += '}';
  }
  m_text += fmt::format(" {}\n", value);
}

namespace {

std::string known_or(const facts::Known<std::string>& k, std::string_view fallback) {
  return k ? *k : std::string(fallback);
}

std::string cuda_api(const facts::DriverFacts& d) {
  int v = d.nvml.cuda_driver_version ? *d.nvml.cuda_driver_version : d.cuda.driver_version ? *d.cuda.driver_version : 0;
  return v > 0 ? fmt::format("{}.{}", v / 1000, (v % 1000) / 10) : "";
}

}  // namespace

std::string check_metrics(const CheckMetrics& m) {
  PrometheusWriter w;
  const Report& r = *m.report;
  const facts::Facts& f = *m.facts;
  int errors = 0;
  for (const auto& x : r.findings)
    if (x.severity == facts::Severity::error) ++errors;

  w.family("gpudoctor_check_ok", "gauge", "1 when the last check found no error, 0 when it found one.");
  w.sample("gpudoctor_check_ok", {}, errors == 0 ? 1 : 0);

  // Each finding id once, valued by how many times it was found (one per GPU, say).
  std::map<std::tuple<std::string, std::string, std::string>, int> count;
  for (const auto& x : r.findings) ++count[{x.id, facts::to_string(x.layer), facts::to_string(x.severity)}];
  w.family("gpudoctor_finding", "gauge", "Findings of the last check, by id; the value is the number of instances.");
  for (const auto& [key, n] : count)
    w.sample("gpudoctor_finding", {{"id", std::get<0>(key)}, {"layer", std::get<1>(key)}, {"severity", std::get<2>(key)}}, n);
  w.family("gpudoctor_findings", "gauge", "Number of findings of the last check, by severity.");
  for (auto sev : {facts::Severity::error, facts::Severity::warning, facts::Severity::info}) {
    int n = 0;
    for (const auto& x : r.findings) n += x.severity == sev;
    w.sample("gpudoctor_findings", {{"severity", facts::to_string(sev)}}, n);
  }

  const auto& nvml = f.driver.nvml;
  w.family("gpudoctor_gpu_info", "gauge", "One series per GPU the driver (or the kernel module) reports, value 1.");
  int gpus = 0;
  if (!nvml.devices.empty()) {
    for (const auto& d : nvml.devices) {
      std::string cc = d.cc_major && d.cc_minor ? fmt::format("{}.{}", *d.cc_major, *d.cc_minor) : "";
      w.sample("gpudoctor_gpu_info",
               {{"index", std::to_string(d.index)}, {"name", known_or(d.name, "")}, {"uuid", known_or(d.uuid, "")},
                {"pci_bus_id", known_or(d.pci_bus_id, "")}, {"compute_capability", cc}},
               1);
      ++gpus;
    }
  } else if (f.environment.kernel.nvidia_gpus) {
    for (const auto& g : *f.environment.kernel.nvidia_gpus) {
      std::string index = g.device_minor ? std::to_string(*g.device_minor) : "";
      w.sample("gpudoctor_gpu_info",
               {{"index", index}, {"name", g.model}, {"uuid", g.uuid}, {"pci_bus_id", g.bus_location}, {"compute_capability", ""}},
               1);
      ++gpus;
    }
  }
  w.family("gpudoctor_gpus", "gauge", "Number of GPUs the driver (or the kernel module) reports.");
  w.sample("gpudoctor_gpus", {}, gpus);

  std::string driver = !f.environment.kernel.nvidia_version.empty() ? f.environment.kernel.nvidia_version
                                                                    : known_or(nvml.driver_version, "");
  w.family("gpudoctor_driver_info", "gauge", "The NVIDIA driver and kernel this machine runs, value 1 (empty when not found).");
  w.sample("gpudoctor_driver_info",
           {{"version", driver},
            {"cuda_driver_api", cuda_api(f.driver)},
            {"kernel", known_or(f.environment.kernel.release, "")},
            {"host", r.host}},
           1);

  w.family("gpudoctor_probe_duration_seconds", "gauge", "Wall time of each probe of the last check.");
  for (const auto& d : m.durations) w.sample("gpudoctor_probe_duration_seconds", {{"probe", d.probe}}, d.seconds);
  w.family("gpudoctor_check_duration_seconds", "gauge", "Wall time of the last check.");
  w.sample("gpudoctor_check_duration_seconds", {}, m.check_seconds);
  w.family("gpudoctor_last_run_timestamp_seconds", "gauge", "Unix time of the last check.");
  w.sample("gpudoctor_last_run_timestamp_seconds", {}, m.unix_time);
  return w.text();
}

}  // namespace gpudoctor::render
