// The code rules of `gpudoctor scan`: one table of catalogue entries (id, layer code, default
// severity, summary, trigger, fix), the way checks/ keeps its checks. The analysis (analyzer.hpp)
// reports under these ids; docs/rules/<id>.md holds each rule's bad and good example, and
// docs/checks.md lists them with every other finding id.
#pragma once

#include <span>
#include <string_view>

#include <facts/finding.hpp>

namespace gpudoctor::scan {

enum class RuleId {
  no_device_placement,
  inputs_not_moved,
  to_result_discarded,
  hardcoded_cpu,
  silent_cpu_fallback,
  visible_devices_after_init,
  sync_in_loop,
  dataloader_single_process,
  dataloader_no_pin_memory,
  dataparallel,
  no_mixed_precision,
  deprecated_amp,
  tensor_created_then_moved,
  cpu_preprocessing_in_loop,
  hf_pipeline_no_device,
  hf_trainer_cpu,
  hf_model_not_moved,
  sklearn_cpu_only,
  model_not_moved,
  module_built_in_forward,
  module_not_registered,
  tensor_attribute_not_buffer,
  tensor_created_without_device,
  optimizer_state_before_move,
  default_gpu_from_input,
  load_without_map_location,
  cuda_ignores_device,
  numpy_of_device_tensor,
  is_available_not_called,
  k_count
};

struct ScanRule {
  RuleId rule;
  facts::FindingInfo info;
};

// Every rule, in RuleId order.
std::span<const ScanRule> all_rules();
const ScanRule& rule(RuleId id);
// nullptr when no rule has this id.
const ScanRule* find_rule(std::string_view id);

}  // namespace gpudoctor::scan
