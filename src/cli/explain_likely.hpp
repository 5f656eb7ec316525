// What explain says when a post states only its symptom ("torch.cuda.is_available() returns
// False", "GPU not used", "не используется gpu", "检测不到GPU") and nothing else in the text decides:
// the cause that most often lies behind that symptom for the framework the text names, as a person
// who triages these posts would say it: an info finding marked as a guess, with what it rests on
// (the symptom alone, never a message or a version) and the one command that confirms or rules it
// out. Inside a container, that cause is a container started without the GPU. Narrower readings
// come first, as warnings: a machine whose only GPU is Intel's or AMD's, a Linux driver installed
// inside WSL, dxcore failing inside WSL, an architecture error on a GPU few
// wheels carry, a container that lost its GPU after a while, and a container that shows no GPU
// inside (no nvidia-smi, no device). Never said when a message, a
// dump or a check named a cause, nor when the text shows the likely cause cannot be it (a PyTorch
// whose version says it is a CUDA build).
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include <facts/facts.hpp>
#include <facts/finding.hpp>

namespace gpudoctor::cli {

// The ids this module may report that no check or signature defines (for docs/checks.md).
std::span<const facts::FindingInfo> explain_likely_infos();
// What else makes explain name id, a finding of another registry (a log signature), as a likely
// cause; empty when nothing does. docs/checks.md appends it to that finding's trigger.
std::string_view explain_likely_also(std::string_view id);

// How much of the text's beginning explain keeps for this reading: a post's title and body; a long
// log that matched nothing is not a post stating a symptom.
inline constexpr std::size_t k_likely_head_bytes = 256u << 10;

// `head`: the first bytes of the text. `described`: what the report readers read from it.
std::optional<facts::Finding> likely_cause(std::string_view head, const facts::Facts& described);

// The narrower readings alone: explain puts one first even when a message was recognised, if that message is
// what the situation looks like from inside (situation_explains: NVML's "Unknown Error", nvidia-smi
// failing to reach the driver, ...).
std::optional<facts::Finding> situation_cause(std::string_view head, const facts::Facts& described);
bool situation_explains(std::string_view id);
// Messages that only restate the symptom ("CUDA is not available", the program goes on on the CPU):
// the guess from the symptom comes before them.
bool restates_symptom(std::string_view id);

// The only GPU the text names is not NVIDIA's (an Intel or AMD GPU) and it says the GPU was not
// used or found: the vendor is the cause (hw.no_compute_gpu, torch.cuda_build_on_amd). situation_cause
// says it first; explain also puts it before Docker's "could not select device driver".
std::optional<facts::Finding> vendor_cause(std::string_view head, const facts::Facts& described);
// CUDA's error 804 ("forward compatibility was attempted on non supported HW") right after the system
// or the driver was updated, outside a container: the new libcuda meets the old kernel module until a
// reboot (driver.version_mismatch), not a driver too old for the CUDA in use.
std::optional<facts::Finding> updated_without_reboot_cause(std::string_view head);
// CUDA's "driver version is insufficient" where the driver the text shows serves every CUDA 12 runtime
// and no newer CUDA is named: the runtime did not reach that driver. In a container, it was started
// without the GPU (no libcuda inside); elsewhere another libcuda (a stub, an old compat copy) is loaded.
std::optional<facts::Finding> driver_not_reached(std::string_view head, const facts::Facts& described);

}  // namespace gpudoctor::cli
