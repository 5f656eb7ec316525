#include <facts/driver_facts.hpp>

#include <util/json_number.hpp>

namespace gpudoctor::facts {

NLOHMANN_JSON_SERIALIZE_ENUM(ProbeOutcome, {{ProbeOutcome::not_run, "not_run"},
                                            {ProbeOutcome::answered, "answered"},
                                            {ProbeOutcome::timed_out, "timed_out"},
                                            {ProbeOutcome::crashed, "crashed"},
                                            {ProbeOutcome::failed, "failed"}})

GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(ProbeRun, outcome, library, detail, wall_ms, timeout_ms)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(LibraryLoad, requested, path, missing_required, missing_optional)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(CallError, code, text)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(GpuProcess, pid, used_memory, command)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(NvmlDevice, index, handle_error, name, uuid, pci_bus_id,
                                                pci_device_id, cc_major, cc_minor, architecture, memory_total,
                                                memory_used, memory_free, utilization_gpu, utilization_memory,
                                                compute_mode, mig_mode, mig_pending, mig_instances,
                                                persistence_mode, ecc_mode, ecc_uncorrectable_volatile,
                                                ecc_uncorrectable_aggregate, retired_pages_pending,
                                                remapped_rows_pending, remapping_failed, clock_event_reasons,
                                                pcie_gen_current, pcie_gen_max, pcie_width_current, pcie_width_max,
                                                temperature_c, power_mw, power_limit_mw, processes, nvlink_active,
                                                nvlink_inactive)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(CudaDevice, ordinal, name, cc_major, cc_minor, uuid, pci_bus_id,
                                                total_memory)

void to_json(nlohmann::json& j, const NvmlFacts& f) {
  j = nlohmann::json{{"run", f.run},
                     {"library", f.library},
                     {"init_error", f.init_error},
                     {"driver_version", f.driver_version},
                     {"cuda_driver_version", f.cuda_driver_version},
                     {"device_count", f.device_count},
                     {"devices", f.devices}};
}

void from_json(const nlohmann::json& j, NvmlFacts& f) {
  NvmlFacts d;
  f.run = j.value("run", d.run);
  f.library = j.value("library", d.library);
  f.init_error = j.value("init_error", d.init_error);
  f.driver_version = j.value("driver_version", d.driver_version);
  f.cuda_driver_version = j.value("cuda_driver_version", d.cuda_driver_version);
  f.device_count = j.value("device_count", d.device_count);
  f.devices = j.value("devices", d.devices);
}

void to_json(nlohmann::json& j, const CudaFacts& f) {
  j = nlohmann::json{{"run", f.run},
                     {"library", f.library},
                     {"init_result", f.init_result},
                     {"init_error_name", f.init_error_name},
                     {"driver_version", f.driver_version},
                     {"device_count", f.device_count},
                     {"devices", f.devices}};
}

void from_json(const nlohmann::json& j, CudaFacts& f) {
  CudaFacts d;
  f.run = j.value("run", d.run);
  f.library = j.value("library", d.library);
  f.init_result = j.value("init_result", d.init_result);
  f.init_error_name = j.value("init_error_name", d.init_error_name);
  f.driver_version = j.value("driver_version", d.driver_version);
  f.device_count = j.value("device_count", d.device_count);
  f.devices = j.value("devices", d.devices);
}

void to_json(nlohmann::json& j, const CudartFacts& f) {
  j = nlohmann::json{{"run", f.run},
                     {"library", f.library},
                     {"runtime_version", f.runtime_version},
                     {"driver_version", f.driver_version},
                     {"device_count_result", f.device_count_result},
                     {"device_count_error", f.device_count_error},
                     {"device_count", f.device_count}};
}

void from_json(const nlohmann::json& j, CudartFacts& f) {
  CudartFacts d;
  f.run = j.value("run", d.run);
  f.library = j.value("library", d.library);
  f.runtime_version = j.value("runtime_version", d.runtime_version);
  f.driver_version = j.value("driver_version", d.driver_version);
  f.device_count_result = j.value("device_count_result", d.device_count_result);
  f.device_count_error = j.value("device_count_error", d.device_count_error);
  f.device_count = j.value("device_count", d.device_count);
}

void to_json(nlohmann::json& j, const DriverFacts& f) {
  j = nlohmann::json{{"nvml", f.nvml}, {"cuda", f.cuda}, {"cudart", f.cudart}};
}

void from_json(const nlohmann::json& j, DriverFacts& f) {
  DriverFacts d;
  f.nvml = j.value("nvml", d.nvml);
  f.cuda = j.value("cuda", d.cuda);
  f.cudart = j.value("cudart", d.cudart);
}

}  // namespace gpudoctor::facts
