// NVML (libnvidia-ml.so.1) asked through dlopen. Prototypes mirror nvml.h (NVML API version 12/13,
// https://docs.nvidia.com/deploy/nvml-api/), types come from nvml_abi.hpp; only what is called is declared.
#include <probe/driver/library_probes.hpp>
#include <probe/driver/nvml_core.hpp>
#include <probe/driver/symbol.hpp>
#include <sys/dynamic_library.hpp>

#include <fmt/format.h>

#include <cstring>

namespace gpudoctor::probe {
namespace {

using namespace nvml_abi;  // NOLINT(google-build-using-namespace): the mirrored vendor types

struct Api : CoreApi {
  nvmlReturn_t (*driver_version)(char*, unsigned) = nullptr;
  nvmlReturn_t (*cuda_driver_version)(int*) = nullptr;
  nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*uuid)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*pci_info)(nvmlDevice_t, nvmlPciInfo_t*) = nullptr;
  bool pci_info_legacy = false;
  nvmlReturn_t (*compute_capability)(nvmlDevice_t, int*, int*) = nullptr;
  nvmlReturn_t (*architecture)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*memory_info)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*compute_mode)(nvmlDevice_t, int*) = nullptr;
  nvmlReturn_t (*mig_mode)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*max_mig_devices)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*mig_handle)(nvmlDevice_t, unsigned, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*persistence_mode)(nvmlDevice_t, int*) = nullptr;
  nvmlReturn_t (*ecc_mode)(nvmlDevice_t, int*, int*) = nullptr;
  nvmlReturn_t (*total_ecc_errors)(nvmlDevice_t, int, int, unsigned long long*) = nullptr;
  nvmlReturn_t (*retired_pages_pending)(nvmlDevice_t, int*) = nullptr;
  nvmlReturn_t (*remapped_rows)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*clock_event_reasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*pcie_gen_current)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*pcie_gen_max)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*pcie_width_current)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*pcie_width_max)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*power_usage)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*power_limit)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*nvlink_state)(nvmlDevice_t, unsigned, int*) = nullptr;
};

class Nvml {
 public:
  Nvml(const Api& api) : m_api(api) {}  // NOLINT(google-explicit-constructor)

  facts::CallError error(nvmlReturn_t r) const { return {r, error_text(m_api, r)}; }
  std::string why(std::string_view call, nvmlReturn_t r) const { return call_error(m_api, call, r); }

  // The value when `r` is success, else unknown with NVML's text.
  template <typename T, typename V>
  facts::Known<T> known(std::string_view call, nvmlReturn_t r, V value) const {
    if (r != k_nvml_success) return facts::Known<T>::unknown(why(call, r));
    return facts::Known<T>(static_cast<T>(value));
  }
  template <typename T>
  static facts::Known<T> missing(std::string_view symbol) {
    return facts::Known<T>::unknown(not_exported(symbol));
  }

 private:
  const Api& m_api;
};

template <typename T, typename Fn, typename Call>
facts::Known<T> ask(Fn fn, std::string_view name, Call call) {
  if (fn == nullptr) return Nvml::missing<T>(name);
  return call();
}

void ask_processes(const Api& api, const Nvml& nvml, nvmlDevice_t dev, facts::NvmlDevice& d) {
  if (api.processes == nullptr) {
    d.processes = Nvml::missing<std::vector<facts::GpuProcess>>("nvmlDeviceGetComputeRunningProcesses");
    return;
  }
  std::vector<ComputeProcess> listed;
  nvmlReturn_t r = list_compute_processes(api, dev, listed);
  std::vector<facts::GpuProcess> out;
  for (const auto& p : listed) {
    out.push_back({p.pid,
                   p.used_memory == k_value_not_available
                       ? facts::Known<std::uint64_t>::unknown("NVML_VALUE_NOT_AVAILABLE")
                       : facts::Known<std::uint64_t>(p.used_memory),
                   {}});
  }
  if (r == k_nvml_insufficient_size) {
    d.processes = facts::Known<std::vector<facts::GpuProcess>>::unknown(
        fmt::format("more than {} compute processes", k_max_processes));
    return;
  }
  d.processes = nvml.known<std::vector<facts::GpuProcess>>("nvmlDeviceGetComputeRunningProcesses", r, out);
}

void ask_nvlink(const Api& api, const Nvml& nvml, nvmlDevice_t dev, facts::NvmlDevice& d) {
  if (api.nvlink_state == nullptr) {
    d.nvlink_active = d.nvlink_inactive = Nvml::missing<int>("nvmlDeviceGetNvLinkState");
    return;
  }
  int active = 0;
  int inactive = 0;
  nvmlReturn_t first = k_nvml_success;
  for (unsigned link = 0; link < k_nvlink_max_links; ++link) {
    int state = 0;
    nvmlReturn_t r = api.nvlink_state(dev, link, &state);
    if (r != k_nvml_success) {
      // Past the last link NVML answers INVALID_ARGUMENT; a GPU without NVLink answers NOT_SUPPORTED.
      if (link == 0) first = r;
      break;
    }
    (state ? active : inactive) += 1;
  }
  if (active + inactive == 0) {
    d.nvlink_active = d.nvlink_inactive =
        facts::Known<int>::unknown(nvml.why("nvmlDeviceGetNvLinkState", first == k_nvml_success ? k_nvml_not_supported : first));
    return;
  }
  d.nvlink_active = active;
  d.nvlink_inactive = inactive;
}

facts::NvmlDevice ask_device(const Api& api, const Nvml& nvml, unsigned index) {
  facts::NvmlDevice d;
  d.index = static_cast<int>(index);
  nvmlDevice_t dev = nullptr;
  nvmlReturn_t r = api.handle_by_index(index, &dev);
  if (r != k_nvml_success) {
    d.handle_error = nvml.error(r);
    return d;
  }
  char buf[128];
  auto str = [&](auto fn, std::string_view name) {
    return ask<std::string>(fn, name, [&] {
      std::memset(buf, 0, sizeof buf);
      nvmlReturn_t rr = fn(dev, buf, sizeof buf - 1);
      return nvml.known<std::string>(name, rr, std::string(buf));
    });
  };
  d.name = str(api.name, "nvmlDeviceGetName");
  d.uuid = str(api.uuid, "nvmlDeviceGetUUID");
  if (api.pci_info) {
    nvmlPciInfo_t pci{};
    nvmlReturn_t rr = api.pci_info(dev, &pci);
    pci.busId[sizeof pci.busId - 1] = 0;
    pci.busIdLegacy[sizeof pci.busIdLegacy - 1] = 0;
    d.pci_bus_id = nvml.known<std::string>("nvmlDeviceGetPciInfo", rr,
                                           std::string(api.pci_info_legacy ? pci.busIdLegacy : pci.busId));
    d.pci_device_id = nvml.known<std::uint32_t>("nvmlDeviceGetPciInfo", rr, pci.pciDeviceId);
  } else {
    d.pci_bus_id = Nvml::missing<std::string>("nvmlDeviceGetPciInfo");
    d.pci_device_id = Nvml::missing<std::uint32_t>("nvmlDeviceGetPciInfo");
  }
  if (api.compute_capability) {
    int major = 0, minor = 0;
    nvmlReturn_t rr = api.compute_capability(dev, &major, &minor);
    d.cc_major = nvml.known<int>("nvmlDeviceGetCudaComputeCapability", rr, major);
    d.cc_minor = nvml.known<int>("nvmlDeviceGetCudaComputeCapability", rr, minor);
  } else {
    d.cc_major = d.cc_minor = Nvml::missing<int>("nvmlDeviceGetCudaComputeCapability");
  }
  auto uint_call = [&](auto fn, std::string_view name) {
    return ask<int>(fn, name, [&] {
      unsigned v = 0;
      nvmlReturn_t rr = fn(dev, &v);
      return nvml.known<int>(name, rr, v);
    });
  };
  auto int_call = [&](auto fn, std::string_view name) {
    return ask<int>(fn, name, [&] {
      int v = 0;
      nvmlReturn_t rr = fn(dev, &v);
      return nvml.known<int>(name, rr, v);
    });
  };
  d.architecture = uint_call(api.architecture, "nvmlDeviceGetArchitecture");
  if (api.memory_info) {
    nvmlMemory_t m{};
    nvmlReturn_t rr = api.memory_info(dev, &m);
    d.memory_total = nvml.known<std::uint64_t>("nvmlDeviceGetMemoryInfo", rr, m.total);
    d.memory_used = nvml.known<std::uint64_t>("nvmlDeviceGetMemoryInfo", rr, m.used);
    d.memory_free = nvml.known<std::uint64_t>("nvmlDeviceGetMemoryInfo", rr, m.free);
  } else {
    d.memory_total = d.memory_used = d.memory_free = Nvml::missing<std::uint64_t>("nvmlDeviceGetMemoryInfo");
  }
  if (api.utilization) {
    nvmlUtilization_t u{};
    nvmlReturn_t rr = api.utilization(dev, &u);
    d.utilization_gpu = nvml.known<int>("nvmlDeviceGetUtilizationRates", rr, u.gpu);
    d.utilization_memory = nvml.known<int>("nvmlDeviceGetUtilizationRates", rr, u.memory);
  } else {
    d.utilization_gpu = d.utilization_memory = Nvml::missing<int>("nvmlDeviceGetUtilizationRates");
  }
  d.compute_mode = int_call(api.compute_mode, "nvmlDeviceGetComputeMode");
  if (api.mig_mode) {
    unsigned current = 0, pending = 0;
    nvmlReturn_t rr = api.mig_mode(dev, &current, &pending);
    d.mig_mode = nvml.known<int>("nvmlDeviceGetMigMode", rr, current);
    d.mig_pending = nvml.known<int>("nvmlDeviceGetMigMode", rr, pending);
    if (rr == k_nvml_success && current == 1 && api.max_mig_devices && api.mig_handle) {
      unsigned max = 0;
      nvmlReturn_t rm = api.max_mig_devices(dev, &max);
      if (rm == k_nvml_success) {
        int instances = 0;
        for (unsigned i = 0; i < max; ++i) {
          nvmlDevice_t mig = nullptr;
          // NOT_FOUND for a slot without a MIG device (nvmlDeviceGetMigDeviceHandleByIndex docs).
          if (api.mig_handle(dev, i, &mig) == k_nvml_success) ++instances;
        }
        d.mig_instances = instances;
      } else {
        d.mig_instances = facts::Known<int>::unknown(nvml.why("nvmlDeviceGetMaxMigDeviceCount", rm));
      }
    } else if (rr == k_nvml_success && current == 1) {
      d.mig_instances = Nvml::missing<int>("nvmlDeviceGetMigDeviceHandleByIndex");
    } else {
      d.mig_instances = facts::Known<int>::unknown("MIG is not enabled");
    }
  } else {
    d.mig_mode = d.mig_pending = d.mig_instances = Nvml::missing<int>("nvmlDeviceGetMigMode");
  }
  d.persistence_mode = int_call(api.persistence_mode, "nvmlDeviceGetPersistenceMode");
  if (api.ecc_mode) {
    int current = 0, pending = 0;
    nvmlReturn_t rr = api.ecc_mode(dev, &current, &pending);
    d.ecc_mode = nvml.known<int>("nvmlDeviceGetEccMode", rr, current);
  } else {
    d.ecc_mode = Nvml::missing<int>("nvmlDeviceGetEccMode");
  }
  for (auto [counter, field] : {std::pair{k_volatile_ecc, &d.ecc_uncorrectable_volatile},
                                std::pair{k_aggregate_ecc, &d.ecc_uncorrectable_aggregate}}) {
    *field = ask<std::uint64_t>(api.total_ecc_errors, "nvmlDeviceGetTotalEccErrors", [&, counter = counter] {
      unsigned long long v = 0;
      nvmlReturn_t rr = api.total_ecc_errors(dev, k_memory_error_type_uncorrected, counter, &v);
      return nvml.known<std::uint64_t>("nvmlDeviceGetTotalEccErrors", rr, v);
    });
  }
  d.retired_pages_pending = int_call(api.retired_pages_pending, "nvmlDeviceGetRetiredPagesPendingStatus");
  if (api.remapped_rows) {
    unsigned corr = 0, unc = 0, pending = 0, failed = 0;
    nvmlReturn_t rr = api.remapped_rows(dev, &corr, &unc, &pending, &failed);
    d.remapped_rows_pending = nvml.known<int>("nvmlDeviceGetRemappedRows", rr, pending);
    d.remapping_failed = nvml.known<int>("nvmlDeviceGetRemappedRows", rr, failed);
  } else {
    d.remapped_rows_pending = d.remapping_failed = Nvml::missing<int>("nvmlDeviceGetRemappedRows");
  }
  d.clock_event_reasons =
      ask<std::uint64_t>(api.clock_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons", [&] {
        unsigned long long v = 0;
        nvmlReturn_t rr = api.clock_event_reasons(dev, &v);
        return nvml.known<std::uint64_t>("nvmlDeviceGetCurrentClocksEventReasons", rr, v);
      });
  d.pcie_gen_current = uint_call(api.pcie_gen_current, "nvmlDeviceGetCurrPcieLinkGeneration");
  d.pcie_gen_max = uint_call(api.pcie_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration");
  d.pcie_width_current = uint_call(api.pcie_width_current, "nvmlDeviceGetCurrPcieLinkWidth");
  d.pcie_width_max = uint_call(api.pcie_width_max, "nvmlDeviceGetMaxPcieLinkWidth");
  d.temperature_c = ask<int>(api.temperature, "nvmlDeviceGetTemperature", [&] {
    unsigned v = 0;
    nvmlReturn_t rr = api.temperature(dev, k_temperature_gpu, &v);
    return nvml.known<int>("nvmlDeviceGetTemperature", rr, v);
  });
  d.power_mw = uint_call(api.power_usage, "nvmlDeviceGetPowerUsage");
  d.power_limit_mw = uint_call(api.power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  ask_processes(api, nvml, dev, d);
  ask_nvlink(api, nvml, dev, d);
  return d;
}

}  // namespace

facts::NvmlFacts ask_nvml(const std::string& library) {
  facts::NvmlFacts f;
  auto lib = open_library(library, f.library);
  if (!lib) return f;
  Symbols syms(*lib, f.library);
  Api api;
  bind_core(syms, api);
  syms.optional(api.driver_version, {"nvmlSystemGetDriverVersion"});
  // _v2 asks libcuda itself; the plain one may return a built-in version when libcuda is missing.
  syms.optional(api.cuda_driver_version, {"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"});
  syms.optional(api.name, {"nvmlDeviceGetName"});
  syms.optional(api.uuid, {"nvmlDeviceGetUUID"});
  auto pci = syms.optional(api.pci_info, {"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2", "nvmlDeviceGetPciInfo"});
  api.pci_info_legacy = pci == "nvmlDeviceGetPciInfo";
  syms.optional(api.compute_capability, {"nvmlDeviceGetCudaComputeCapability"});
  syms.optional(api.architecture, {"nvmlDeviceGetArchitecture"});
  syms.optional(api.memory_info, {"nvmlDeviceGetMemoryInfo"});
  syms.optional(api.utilization, {"nvmlDeviceGetUtilizationRates"});
  syms.optional(api.compute_mode, {"nvmlDeviceGetComputeMode"});
  syms.optional(api.mig_mode, {"nvmlDeviceGetMigMode"});
  syms.optional(api.max_mig_devices, {"nvmlDeviceGetMaxMigDeviceCount"});
  syms.optional(api.mig_handle, {"nvmlDeviceGetMigDeviceHandleByIndex"});
  syms.optional(api.persistence_mode, {"nvmlDeviceGetPersistenceMode"});
  syms.optional(api.ecc_mode, {"nvmlDeviceGetEccMode"});
  syms.optional(api.total_ecc_errors, {"nvmlDeviceGetTotalEccErrors"});
  syms.optional(api.retired_pages_pending, {"nvmlDeviceGetRetiredPagesPendingStatus"});
  syms.optional(api.remapped_rows, {"nvmlDeviceGetRemappedRows"});
  // ...ClocksThrottleReasons is DEPRECATED(13.0) in favour of ...ClocksEventReasons (same bits).
  syms.optional(api.clock_event_reasons,
                {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"});
  syms.optional(api.pcie_gen_current, {"nvmlDeviceGetCurrPcieLinkGeneration"});
  syms.optional(api.pcie_gen_max, {"nvmlDeviceGetMaxPcieLinkGeneration"});
  syms.optional(api.pcie_width_current, {"nvmlDeviceGetCurrPcieLinkWidth"});
  syms.optional(api.pcie_width_max, {"nvmlDeviceGetMaxPcieLinkWidth"});
  syms.optional(api.temperature, {"nvmlDeviceGetTemperature"});
  syms.optional(api.power_usage, {"nvmlDeviceGetPowerUsage"});
  syms.optional(api.power_limit, {"nvmlDeviceGetEnforcedPowerLimit"});
  syms.optional(api.nvlink_state, {"nvmlDeviceGetNvLinkState"});
  if (!f.library.missing_required.empty()) return f;

  Nvml nvml(api);
  nvmlReturn_t r = api.init();
  if (r != k_nvml_success) {
    f.init_error = nvml.error(r);
    return f;
  }
  if (api.driver_version) {
    char buf[96] = {};
    nvmlReturn_t rr = api.driver_version(buf, sizeof buf - 1);
    f.driver_version = nvml.known<std::string>("nvmlSystemGetDriverVersion", rr, std::string(buf));
  } else {
    f.driver_version = Nvml::missing<std::string>("nvmlSystemGetDriverVersion");
  }
  if (api.cuda_driver_version) {
    int v = 0;
    nvmlReturn_t rr = api.cuda_driver_version(&v);
    f.cuda_driver_version = nvml.known<int>("nvmlSystemGetCudaDriverVersion", rr, v);
  } else {
    f.cuda_driver_version = Nvml::missing<int>("nvmlSystemGetCudaDriverVersion");
  }
  unsigned count = 0;
  r = api.device_count(&count);
  f.device_count = nvml.known<int>("nvmlDeviceGetCount", r, count);
  if (r == k_nvml_success) {
    for (unsigned i = 0; i < count && i < 64; ++i) f.devices.push_back(ask_device(api, nvml, i));
  }
  api.shutdown();
  return f;
}

}  // namespace gpudoctor::probe
