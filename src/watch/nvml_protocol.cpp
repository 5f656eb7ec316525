#include <watch/nvml_protocol.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

#include <watch/timeline.hpp>

namespace gpudoctor::watch {

std::variant<GpuReading, std::string> parse_nvml_reading(const nlohmann::json& j, const std::string& pid_namespace_note) {
  GpuReading out;
  try {
    if (!j.is_object()) return std::string("not a JSON object");
    for (const auto& g : j.value("gpus", nlohmann::json::array())) out.gpus.push_back(g.get<GpuSample>());
    if (!pid_namespace_note.empty()) {
      out.processes_unknown = pid_namespace_note;
      return out;
    }
    if (j.contains("processes_unknown")) {
      out.processes_unknown = "NVML did not list the compute processes: " + j.value("processes_unknown", std::string());
      return out;
    }
    out.processes_listed = true;
    out.process_sm_unknown = j.value("process_sm_unknown", std::string());
    for (const auto& p : j.value("processes", nlohmann::json::array())) {
      if (!p.is_object()) return std::string("a process entry is not an object");
      // Checked before conversion: nlohmann converts -1 to 2^64 - 1 and 1e20 to an int without a word.
      const auto id = p.find("pid");
      if (id == p.end() || !id->is_number_integer() || id->get<std::int64_t>() <= 0 ||
          id->get<std::int64_t>() > std::numeric_limits<int>::max()) {
        continue;
      }
      const int pid = static_cast<int>(id->get<std::int64_t>());
      auto& mem = out.process_memory_bytes[pid];
      if (p.contains("memory_bytes")) {
        if (!p.at("memory_bytes").is_number_unsigned()) return std::string("memory_bytes is not a byte count");
        std::uint64_t bytes = p.at("memory_bytes").get<std::uint64_t>();
        mem = mem.known() ? Known<std::uint64_t>(*mem + bytes) : Known<std::uint64_t>(bytes);
      } else if (!mem.known()) {
        mem = Known<std::uint64_t>::unknown("NVML_VALUE_NOT_AVAILABLE (NVML did not say how much)");
      }
      if (p.contains("sm_percent")) {
        if (!p.at("sm_percent").is_number()) return std::string("sm_percent is not a number");
        double sm = p.at("sm_percent").get<double>();
        auto& slot = out.process_sm_percent[pid];
        slot = std::max(slot, sm);
      }
    }
  } catch (const nlohmann::json::exception& e) {
    return std::string(e.what());
  }
  return out;
}

}  // namespace gpudoctor::watch
