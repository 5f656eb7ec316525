// Per-GPU health as NVML reports it: lost, MIG without instances, compute mode, memory held by other
// processes, ECC and page retirement, throttling, PCIe link, persistence, mixed models, and what the
// GPU's compute capability accelerates. A fact NVML did not report is never read as "fine".
#include <checks/check.hpp>
#include <checks/driver_checks.hpp>
#include <checks/driver_knowledge.hpp>
#include <checks/driver_view.hpp>
#include <facts/clock_event_reasons.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace gpudoctor::checks {
namespace {

void for_each_gpu(const Facts& f, auto fn) {
  DriverView view(f);
  for (const auto& g : view.gpus()) {
    if (g.nvml && g.nvml->handle_error.code == 0) fn(g, *g.nvml);
  }
}

void check_lost(const Facts& f, FindingSink& out) {
  DriverView view(f);
  for (const auto& g : view.gpus()) {
    if (!g.nvml) continue;
    int code = g.nvml->handle_error.code;
    if (code != 15 && code != 16) continue;
    out.emit(fmt::format("GPU {} has fallen off the bus or needs a reset: NVML answers \"{}\".", g.nvml->index,
                         g.nvml->handle_error.text),
             {fmt::format("nvmlDeviceGetHandleByIndex_v2({}) = {}", g.nvml->index,
                          describe_nvml_error(code, g.nvml->handle_error.text))});
  }
}

void check_mig_no_instances(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    if (d.mig_mode.value_or(0) != 1 || !d.mig_instances || *d.mig_instances != 0) return;
    out.emit(fmt::format("{} is in MIG mode with no GPU instances: CUDA sees no device on it.", g.label),
             {"nvmlDeviceGetMigMode: current = enabled", "nvmlDeviceGetMigDeviceHandleByIndex: no MIG device in any slot"});
  });
}

void check_compute_prohibited(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    if (d.compute_mode.value_or(-1) != facts::k_compute_mode_prohibited) return;
    out.emit(fmt::format("{} is in compute mode Prohibited: no process may create a CUDA context on it.", g.label),
             {"nvmlDeviceGetComputeMode = NVML_COMPUTEMODE_PROHIBITED (2)"},
             fmt::format("`sudo nvidia-smi -i {} -c DEFAULT`", d.index));
  });
}

std::string describe_processes(const facts::NvmlDevice& d) {
  std::vector<std::string> parts;
  for (const auto& p : d.processes.value()) {
    parts.push_back(fmt::format("pid {} ({}){}", p.pid, p.command.value_or("command unknown"),
                                p.used_memory ? ", " + format_bytes(*p.used_memory) : ""));
  }
  return util::join(parts, "; ");
}

void check_exclusive_busy(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    if (d.compute_mode.value_or(-1) != facts::k_compute_mode_exclusive_process) return;
    if (!d.processes || d.processes->empty()) return;
    out.emit(fmt::format("{} is in compute mode Exclusive Process and another process already holds it: a new CUDA "
                         "context fails (error 46, device unavailable).",
                         g.label),
             {"nvmlDeviceGetComputeMode = NVML_COMPUTEMODE_EXCLUSIVE_PROCESS (3)", "held by " + describe_processes(d)},
             fmt::format("Wait for or stop the holder, use another GPU, or `sudo nvidia-smi -i {} -c DEFAULT`.", d.index));
  });
}

void check_memory_held(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    if (!d.processes || !d.memory_total || *d.memory_total == 0) return;
    if (d.processes->empty()) {
      // Memory in use with no process listed: its holders are out of this view (another container
      // or VM, another PID namespace), or a context that was never freed (a killed process whose
      // zombie still holds the device).
      if (!d.memory_used || *d.memory_used * 2 < *d.memory_total) return;
      out.emit(fmt::format("{}: {} of its {} memory is in use, and no process that holds it is listed.", g.label,
                           format_bytes(*d.memory_used), format_bytes(*d.memory_total)),
               {fmt::format("memory used: {} of {}", format_bytes(*d.memory_used), format_bytes(*d.memory_total)),
                "compute processes: none listed"},
               "Find the holder: `sudo fuser -v /dev/nvidia*` on the host (processes of other containers and users "
               "are not listed inside a container); kill a stale or zombie process, or reset the GPU "
               "(`nvidia-smi -r -i N`) when none is left.");
      return;
    }
    std::uint64_t held = 0;
    for (const auto& p : *d.processes) held += p.used_memory.value_or(0);
    std::uint64_t used = d.memory_used.value_or(held);
    // Half the memory in other processes' hands leaves a model little room (and an OOM that looks
    // like the model's own fault).
    if (std::max(held, used) * 2 < *d.memory_total) return;
    out.emit(fmt::format("{}: other processes hold {} of its {} memory.", g.label, format_bytes(std::max(held, used)),
                         format_bytes(*d.memory_total)),
             {"compute processes: " + describe_processes(d),
              d.memory_free ? fmt::format("free: {}", format_bytes(*d.memory_free)) : "free memory not reported"});
  });
}

void check_ecc(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    std::uint64_t vol = d.ecc_uncorrectable_volatile.value_or(0);
    std::uint64_t agg = d.ecc_uncorrectable_aggregate.value_or(0);
    if (vol == 0 && agg == 0) return;
    auto& fd = out.emit(fmt::format("{} has had uncorrectable ECC memory errors: {} since the driver loaded, {} in its "
                                    "lifetime.",
                                    g.label, vol, agg),
                        {"nvmlDeviceGetTotalEccErrors(NVML_MEMORY_ERROR_TYPE_UNCORRECTED)"});
    if (vol == 0) fd.severity = Severity::warning;
  });
}

void check_pages_pending(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    std::vector<std::string> evidence;
    if (d.retired_pages_pending.value_or(0) == 1) evidence.push_back("nvmlDeviceGetRetiredPagesPendingStatus = pending");
    if (d.remapped_rows_pending.value_or(0) == 1) evidence.push_back("nvmlDeviceGetRemappedRows: remapping pending");
    bool failed = d.remapping_failed.value_or(0) == 1;
    if (failed) evidence.push_back("nvmlDeviceGetRemappedRows: a remapping failed");
    if (evidence.empty()) return;
    auto& fd = out.emit(failed ? fmt::format("{} ran out of spare memory rows: a row remapping failed; the board needs service.", g.label)
                               : fmt::format("{} has memory pages waiting to be retired: they are only retired at the next GPU reset.", g.label),
                        std::move(evidence));
    if (failed) fd.severity = Severity::error;
  });
}

void check_throttled(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    if (!d.clock_event_reasons || (*d.clock_event_reasons & facts::k_clock_events_serious) == 0) return;
    std::vector<std::string> evidence = {fmt::format("nvmlDeviceGetCurrentClocksEventReasons = 0x{:x}", *d.clock_event_reasons)};
    for (auto& name : facts::clock_event_reason_names(*d.clock_event_reasons)) evidence.push_back(std::move(name));
    if (d.temperature_c) evidence.push_back(fmt::format("temperature {} C", *d.temperature_c));
    if (d.power_mw && d.power_limit_mw) {
      evidence.push_back(fmt::format("power {:.0f} W of {:.0f} W", *d.power_mw / 1000.0, *d.power_limit_mw / 1000.0));
    }
    out.emit(fmt::format("{} is throttling its clocks for heat or power.", g.label), std::move(evidence));
  });
}

void check_pcie_degraded(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    std::vector<std::string> evidence;
    if (d.pcie_width_current && d.pcie_width_max && *d.pcie_width_current < *d.pcie_width_max) {
      evidence.push_back(fmt::format("link width x{} of x{}", *d.pcie_width_current, *d.pcie_width_max));
    }
    // Links drop their generation at idle to save power; a lower generation counts only under load.
    if (d.pcie_gen_current && d.pcie_gen_max && *d.pcie_gen_current < *d.pcie_gen_max && d.utilization_gpu.value_or(0) > 0) {
      evidence.push_back(fmt::format("PCIe gen {} of {} while {}% busy", *d.pcie_gen_current, *d.pcie_gen_max,
                                     d.utilization_gpu.value_or(0)));
    }
    if (evidence.empty()) return;
    out.emit(fmt::format("{} runs its PCIe link below what it can do: host-device copies are slower.", g.label),
             std::move(evidence));
  });
}

void check_persistence_off(const Facts& f, FindingSink& out) {
  for_each_gpu(f, [&](const GpuView& g, const facts::NvmlDevice& d) {
    if (d.persistence_mode.value_or(-1) != 0) return;
    out.emit(fmt::format("{} has persistence mode off: every program's first CUDA call waits for the driver to "
                         "initialise the GPU (seconds on large GPUs).",
                         g.label),
             {"nvmlDeviceGetPersistenceMode = disabled"});
  });
}

void check_mixed_models(const Facts& f, FindingSink& out) {
  DriverView view(f);
  std::map<std::string, std::vector<std::string>> models;
  for (const auto& g : view.gpus()) {
    // A GPU NVML could not open (lost) has no model to compare.
    if (g.nvml && g.nvml->handle_error.code != 0) continue;
    std::string model = g.name.empty() ? fmt::format("10de:{:04x}", g.device_id) : g.name;
    if (g.nvml && g.nvml->memory_total) model += ", " + format_bytes(*g.nvml->memory_total);
    std::string where = g.nvml ? std::to_string(g.nvml->index) : (g.pci ? g.pci->address : "?");
    models[model].push_back(where);
  }
  if (models.size() < 2) return;
  std::vector<std::string> evidence;
  for (const auto& [model, where] : models) evidence.push_back(fmt::format("{}: GPU {}", model, util::join(where, ", ")));
  out.emit(fmt::format("This machine mixes {} GPU models or memory sizes: data-parallel training runs at the pace of the "
                       "slowest and smallest.",
                       models.size()),
           std::move(evidence));
}

std::string accelerates(const ComputeCapability& cc) {
  auto p = precisions(cc);
  std::vector<std::string> yes;
  std::vector<std::string> no;
  (p.fp16_tensor_cores ? yes : no).push_back("FP16 tensor cores");
  (p.tf32 ? yes : no).push_back("TF32");
  (p.bf16 ? yes : no).push_back("BF16");
  (p.fp8 ? yes : no).push_back("FP8");
  std::string s = yes.empty() ? "no tensor-core precisions" : util::join(yes, ", ");
  if (!no.empty()) s += "; not " + util::join(no, ", ");
  return s;
}

void check_capabilities(const Facts& f, FindingSink& out) {
  DriverView view(f);
  for (const auto& g : view.gpus()) {
    if (!g.cc) continue;
    auto arch = architecture(*g.cc);
    out.emit(fmt::format("{} is an {} GPU{}: {}.", g.label, g.cc->sm(), arch ? " (" + arch->name + ")" : "", accelerates(*g.cc)),
             {fmt::format("compute capability {} from {}", g.cc->dotted(), g.cc_source)});
  }
}

void check_bf16_unsupported(const Facts& f, FindingSink& out) {
  DriverView view(f);
  for (const auto& g : view.gpus()) {
    if (!g.cc || precisions(*g.cc).bf16) continue;
    out.emit(fmt::format("{} ({}) has no BF16 support: autocast to bfloat16 is emulated or refused; use float16 "
                         "mixed precision{}.",
                         g.label, g.cc->sm(), precisions(*g.cc).fp16_tensor_cores ? " (it has FP16 tensor cores)" : ""),
             {fmt::format("compute capability {} from {}; BF16 needs 8.0 or newer", g.cc->dotted(), g.cc_source)});
  }
}

const Check k_checks[] = {
    {{"gpu.lost", Layer::driver, Severity::error, "GPU fallen off the bus",
      "nvmlDeviceGetHandleByIndex_v2 returns NVML_ERROR_GPU_IS_LOST (15) or NVML_ERROR_RESET_REQUIRED (16)",
      "Check `sudo dmesg | grep -i xid` (Xid 79: fallen off the bus); reset the GPU (`nvidia-smi -r -i N`) or reboot; "
      "if it recurs, check power, cooling and the PCIe slot."},
     check_lost},
    {{"gpu.mig_no_instances", Layer::driver, Severity::error, "MIG enabled, no instances",
      "NVML: MIG mode enabled and no MIG device handle exists",
      "Create instances (`sudo nvidia-smi mig -cgi <profile> -C`) or disable MIG (`sudo nvidia-smi -i N -mig 0`)."},
     check_mig_no_instances},
    {{"gpu.compute_prohibited", Layer::driver, Severity::error, "Compute mode Prohibited",
      "nvmlDeviceGetComputeMode = NVML_COMPUTEMODE_PROHIBITED", "`sudo nvidia-smi -i N -c DEFAULT`."},
     check_compute_prohibited},
    {{"gpu.exclusive_busy", Layer::driver, Severity::error, "Exclusive-process GPU already taken",
      "compute mode Exclusive Process and NVML lists a compute process on the GPU",
      "Stop the holder or use another GPU; `sudo nvidia-smi -i N -c DEFAULT` to share it."},
     check_exclusive_busy},
    {{"gpu.memory_held_by_others", Layer::driver, Severity::warning, "GPU memory held by other processes",
      "compute processes on the GPU hold at least half its memory (NVML), listed with their pids and commands; or half "
      "its memory is in use while no process is listed (holders in another container, VM or PID namespace, or a "
      "context never freed)",
      "Stop the listed processes (a stale Jupyter kernel or a finished job's zombie is common), or choose another GPU."},
     check_memory_held},
    {{"gpu.ecc_uncorrectable", Layer::driver, Severity::error, "Uncorrectable ECC errors",
      "nvmlDeviceGetTotalEccErrors reports uncorrected errors (error since the driver loaded, warning when only in "
      "the lifetime count)",
      "Reset the GPU (`nvidia-smi -r -i N`) to retire the pages; if errors recur, the board needs service."},
     check_ecc},
    {{"gpu.pages_pending_retirement", Layer::driver, Severity::warning, "Memory pages waiting for retirement",
      "NVML: retired pages pending, or row remapping pending (error when a remapping failed)",
      "Reset the GPU (`nvidia-smi -r -i N`) or reboot so the pending retirement or remapping takes effect."},
     check_pages_pending},
    {{"gpu.throttled", Layer::driver, Severity::warning, "GPU clocks throttled",
      "NVML clock event reasons include HW slowdown, SW or HW thermal slowdown, or the power brake",
      "Check cooling (fans, airflow, `nvidia-smi -q -d TEMPERATURE`) and the power supply."},
     check_throttled},
    {{"gpu.pcie_degraded", Layer::driver, Severity::warning, "PCIe link below its maximum",
      "NVML: current link width below the maximum, or generation below the maximum while the GPU is busy",
      "Reseat the GPU or move it to a full-width slot; check BIOS PCIe settings and risers."},
     check_pcie_degraded},
    {{"gpu.persistence_off", Layer::driver, Severity::info, "Persistence mode off",
      "nvmlDeviceGetPersistenceMode = disabled",
      "Run the nvidia-persistenced daemon (`sudo systemctl enable --now nvidia-persistenced`)."},
     check_persistence_off},
    {{"gpu.mixed_models", Layer::driver, Severity::warning, "GPUs of different models in one machine",
      "the NVIDIA GPUs differ in model name or memory size",
      "Pin multi-GPU jobs to identical GPUs (CUDA_VISIBLE_DEVICES), or balance the work per GPU."},
     check_mixed_models},
    {{"gpu.capabilities", Layer::driver, Severity::info, "What the GPU accelerates",
      "every NVIDIA GPU whose compute capability is known (NVML, or the PCI id without a driver)",
      "Nothing to fix: FP16 tensor cores need 7.0+, TF32 and BF16 8.0+, FP8 8.9+."},
     check_capabilities},
    {{"gpu.bf16_unsupported", Layer::driver, Severity::info, "GPU without BF16",
      "a GPU's compute capability is below 8.0", "Use float16 autocast (with a GradScaler) instead of bfloat16."},
     check_bf16_unsupported},
};

}  // namespace

std::span<const Check> gpu_checks() { return k_checks; }

}  // namespace gpudoctor::checks
