// Per-interval NVML readings for a watched run. Only the calls that are cheap and say what the run
// did: utilisation, memory, power, clock-event (throttle) reasons, compute processes and their SM
// share. Everything the one-shot driver probe asks (ECC, PCIe, MIG...) stays there.
#include <probe/driver/nvml_sampler.hpp>

#include <sys/time.h>

#include <algorithm>
#include <istream>
#include <map>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <probe/driver/nvml_core.hpp>
#include <watch/timeline.hpp>

namespace gpudoctor::probe {
namespace {

using namespace nvml_abi;  // NOLINT(google-build-using-namespace): the mirrored vendor types
using facts::Known;

constexpr unsigned k_max_gpus = 64;

struct SamplerApi : CoreApi {
  nvmlReturn_t (*driver_version)(char*, unsigned) = nullptr;
  nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*memory_info)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*power_usage)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*clock_event_reasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*process_utilization)(nvmlDevice_t, nvmlProcessUtilizationSample_t*, unsigned*,
                                      unsigned long long) = nullptr;
};

class Sampler {
 public:
  explicit Sampler(const SamplerApi& api) : m_api(api) {}

  std::string why(std::string_view call, nvmlReturn_t r) const { return call_error(m_api, call, r); }

  // The devices, once: a handle NVML will not give stays absent from every reading.
  nlohmann::json open_devices() {
    unsigned count = 0;
    nvmlReturn_t r = m_api.device_count(&count);
    if (r != k_nvml_success) return {{"ready", false}, {"error", why("nvmlDeviceGetCount", r)}};
    for (unsigned i = 0; i < count && i < k_max_gpus; ++i) {
      Device d;
      d.index = static_cast<int>(i);
      if (m_api.handle_by_index(i, &d.handle) != k_nvml_success) continue;
      char buf[128] = {};
      if (m_api.name && m_api.name(d.handle, buf, sizeof buf - 1) == k_nvml_success) d.name = buf;
      d.last_seen_us = now_us();  // process samples from before we started are not this run's
      m_devices.push_back(d);
    }
    nlohmann::json hello = {{"ready", true}, {"count", count}};
    if (m_api.driver_version) {
      char buf[96] = {};
      if (m_api.driver_version(buf, sizeof buf - 1) == k_nvml_success) hello["driver_version"] = buf;
    }
    return hello;
  }

  nlohmann::json reading() {
    nlohmann::json gpus = nlohmann::json::array();
    nlohmann::json processes = nlohmann::json::array();
    m_sm_supported = false;
    m_sm_why.clear();
    m_processes_why.clear();
    for (auto& d : m_devices) {
      gpus.push_back(gpu_sample(d));
      add_processes(d, processes);
    }
    nlohmann::json out = {{"gpus", std::move(gpus)}, {"processes", std::move(processes)}};
    // Without per-process samples from any GPU, a process's SM share is unknown, not 0 %.
    if (!m_sm_supported && !m_devices.empty()) {
      out["process_sm_unknown"] = m_sm_why.empty() ? std::string("no SM samples") : m_sm_why;
    }
    if (!m_processes_why.empty()) out["processes_unknown"] = m_processes_why;
    return out;
  }

 private:
  struct Device {
    int index = 0;
    nvmlDevice_t handle = nullptr;
    std::string name;
    unsigned long long last_seen_us = 0;
  };

  static unsigned long long now_us() {
    timeval tv{};
    ::gettimeofday(&tv, nullptr);  // NVML's process samples carry CPU (wall-clock) microseconds
    return static_cast<unsigned long long>(tv.tv_sec) * 1000000ULL + static_cast<unsigned long long>(tv.tv_usec);
  }

  template <typename T>
  Known<T> missing(std::string_view symbol) const {
    return Known<T>::unknown(not_exported(symbol));
  }

  nlohmann::json gpu_sample(const Device& d) const {
    watch::GpuSample g;
    g.index = d.index;
    g.name = d.name;
    if (m_api.utilization) {
      nvmlUtilization_t u{};
      nvmlReturn_t r = m_api.utilization(d.handle, &u);
      if (r == k_nvml_success) {
        g.busy_percent = static_cast<double>(u.gpu);
        g.memory_busy_percent = static_cast<double>(u.memory);
      } else {
        g.busy_percent = g.memory_busy_percent = Known<double>::unknown(why("nvmlDeviceGetUtilizationRates", r));
      }
    } else {
      g.busy_percent = g.memory_busy_percent = missing<double>("nvmlDeviceGetUtilizationRates");
    }
    if (m_api.memory_info) {
      nvmlMemory_t m{};
      nvmlReturn_t r = m_api.memory_info(d.handle, &m);
      if (r == k_nvml_success) {
        g.memory_used_bytes = static_cast<std::uint64_t>(m.used);
        g.memory_total_bytes = static_cast<std::uint64_t>(m.total);
      } else {
        g.memory_used_bytes = g.memory_total_bytes = Known<std::uint64_t>::unknown(why("nvmlDeviceGetMemoryInfo", r));
      }
    } else {
      g.memory_used_bytes = g.memory_total_bytes = missing<std::uint64_t>("nvmlDeviceGetMemoryInfo");
    }
    if (m_api.power_usage) {
      unsigned mw = 0;
      nvmlReturn_t r = m_api.power_usage(d.handle, &mw);
      g.power_watts = r == k_nvml_success ? Known<double>(mw / 1000.0)
                                          : Known<double>::unknown(why("nvmlDeviceGetPowerUsage", r));
    } else {
      g.power_watts = missing<double>("nvmlDeviceGetPowerUsage");
    }
    if (m_api.clock_event_reasons) {
      unsigned long long v = 0;
      nvmlReturn_t r = m_api.clock_event_reasons(d.handle, &v);
      g.throttle_reasons = r == k_nvml_success
                               ? Known<std::uint64_t>(static_cast<std::uint64_t>(v))
                               : Known<std::uint64_t>::unknown(why("nvmlDeviceGetCurrentClocksEventReasons", r));
    } else {
      g.throttle_reasons = missing<std::uint64_t>("nvmlDeviceGetCurrentClocksEventReasons");
    }
    return g;
  }

  void add_processes(Device& d, nlohmann::json& out) {
    if (m_api.processes == nullptr) {
      m_processes_why = not_exported("nvmlDeviceGetComputeRunningProcesses");
      return;
    }
    std::vector<ComputeProcess> found;
    nvmlReturn_t r = list_compute_processes(m_api, d.handle, found);
    if (r != k_nvml_success) {
      // Not listed is not "holds nothing": the whole reading's process figures become unknown.
      if (m_processes_why.empty()) m_processes_why = fmt::format("GPU {}: {}", d.index, why("nvmlDeviceGetComputeRunningProcesses", r));
      return;
    }
    std::map<unsigned, unsigned> sm = process_sm(d);
    for (const auto& [pid, used] : found) {
      nlohmann::json p = {{"pid", pid}, {"gpu", d.index}};
      if (used != k_value_not_available) p["memory_bytes"] = used;
      if (auto it = sm.find(pid); it != sm.end()) p["sm_percent"] = it->second;
      out.push_back(std::move(p));
    }
    // A process with SM samples but no longer in the list (it just exited) is left out.
  }

  // The highest SM share of each process over the samples NVML took since the last reading.
  std::map<unsigned, unsigned> process_sm(Device& d) {
    std::map<unsigned, unsigned> out;
    if (m_api.process_utilization == nullptr) {
      m_sm_why = not_exported("nvmlDeviceGetProcessUtilization");
      return out;
    }
    unsigned count = 0;
    nvmlReturn_t r = m_api.process_utilization(d.handle, nullptr, &count, d.last_seen_us);
    if (r == k_nvml_success || r == k_nvml_insufficient_size || r == k_nvml_not_found) {
      m_sm_supported = true;  // NOT_FOUND: supported, and no process used the SMs since last time
    } else if (m_sm_why.empty()) {
      m_sm_why = why("nvmlDeviceGetProcessUtilization", r);
    }
    // With a null buffer NVML answers the count (INSUFFICIENT_SIZE, as nvtop relies on; some
    // drivers say SUCCESS); NOT_FOUND means no sample since last_seen.
    if ((r != k_nvml_insufficient_size && r != k_nvml_success) || count == 0) return out;
    count = std::min(count + 8, 4 * k_max_processes);
    std::vector<nvmlProcessUtilizationSample_t> samples(count);
    r = m_api.process_utilization(d.handle, samples.data(), &count, d.last_seen_us);
    if (r != k_nvml_success) return out;
    for (unsigned i = 0; i < count && i < samples.size(); ++i) {
      const auto& s = samples[i];
      out[s.pid] = std::max(out[s.pid], std::min(s.smUtil, 100u));
      d.last_seen_us = std::max(d.last_seen_us, s.timeStamp);
    }
    return out;
  }

  const SamplerApi& m_api;
  std::vector<Device> m_devices;
  std::string m_processes_why;  // in this reading, why some GPU's compute processes are not listed
  bool m_sm_supported = false;  // in this reading, some GPU answered per-process SM samples
  std::string m_sm_why;         // else why not
};

}  // namespace

int run_nvml_sampler_child(const std::string& library, std::istream& in, std::ostream& out) {
  facts::LibraryLoad load;
  auto refuse = [&](std::string why) {
    out << nlohmann::json{{"ready", false}, {"error", std::move(why)}}.dump() << '\n' << std::flush;
    return 1;
  };
  auto lib = open_library(library, load);
  if (!lib) return refuse(fmt::format("{}: {}", library, load.path.why()));
  Symbols syms(*lib, load);
  SamplerApi api;
  bind_core(syms, api);
  syms.optional(api.driver_version, {"nvmlSystemGetDriverVersion"});
  syms.optional(api.name, {"nvmlDeviceGetName"});
  syms.optional(api.memory_info, {"nvmlDeviceGetMemoryInfo"});
  syms.optional(api.utilization, {"nvmlDeviceGetUtilizationRates"});
  syms.optional(api.power_usage, {"nvmlDeviceGetPowerUsage"});
  syms.optional(api.clock_event_reasons,
                {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"});
  syms.optional(api.process_utilization, {"nvmlDeviceGetProcessUtilization"});
  if (!load.missing_required.empty()) {
    return refuse(fmt::format("{} does not export {}", library, fmt::join(load.missing_required, ", ")));
  }
  Sampler sampler(api);
  nvmlReturn_t r = api.init();
  if (r != k_nvml_success) return refuse(sampler.why("nvmlInit", r));
  nlohmann::json hello = sampler.open_devices();
  out << hello.dump() << '\n' << std::flush;
  if (!hello.value("ready", false)) {
    api.shutdown();
    return 1;
  }
  std::string request;
  while (std::getline(in, request)) {
    out << sampler.reading().dump() << '\n' << std::flush;
    if (!out) break;
  }
  api.shutdown();
  return 0;
}

}  // namespace gpudoctor::probe
