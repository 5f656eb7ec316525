#include <cli/explain_fallback.hpp>

#include <fmt/format.h>

#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

constexpr facts::FindingInfo k_infos[] = {
    {"explain.unrecognised", facts::Layer::run, facts::Severity::info, "Nothing in the text was recognised",
     "explain read no known error message and no tool output it reads (this says nothing about the machine)",
     "Paste the whole error with its traceback, and the output of `nvidia-smi` and `python -m "
     "torch.utils.collect_env`; or run `gpudoctor check` on the machine (or `gpudoctor capture -o machine.tar.gz`)."},
    {"explain.no_cause_found", facts::Layer::run, facts::Severity::info,
     "The text was read, and nothing in it names a cause",
     "explain read tool output or messages, but no check finds a cause in the facts they show and no known error "
     "message was found",
     "Paste what the text lacks (the error itself, `nvidia-smi`, the framework's environment dump), or run "
     "`gpudoctor check` on the machine."},
};

constexpr std::size_t k_shown_readings = 8;

facts::Finding make(const facts::FindingInfo& info, std::string message, std::vector<std::string> evidence,
                    std::string fix) {
  facts::Finding f;
  f.id = std::string(info.id);
  f.layer = info.layer;
  f.severity = info.severity;
  f.message = std::move(message);
  f.evidence = std::move(evidence);
  f.fix = std::move(fix);
  f.docs = facts::docs_anchor(info.id);
  return f;
}

// The next step: the dumps the text does not have yet.
std::string next_step(const facts::Facts& f) {
  std::vector<std::string> paste;
  bool driver = f.driver.nvml.driver_version.known() || f.driver.nvml.cuda_driver_version.known();
  if (!driver) paste.emplace_back("`nvidia-smi` (or its error)");
  bool framework = f.framework.environments.known() && !f.framework.environments->empty();
  if (!framework) {
    paste.emplace_back(
        "the framework's own report (`python -m torch.utils.collect_env`, `python -c \"import tensorflow as tf; "
        "print(tf.sysconfig.get_build_info(), tf.config.list_physical_devices())\"`, `python -c \"import jax; "
        "jax.print_environment_info()\"`)");
  }
  paste.emplace_back("the whole error with its traceback");
  return fmt::format("Paste {}; or run `gpudoctor check` on the machine itself.", util::join(paste, ", "));
}

}  // namespace

std::span<const facts::FindingInfo> explain_fallback_infos() { return k_infos; }

facts::Finding explain_fallback(const probe::text::ReportReader& reader, std::uint64_t lines, std::uint64_t bytes,
                                std::uint64_t matched_lines) {
  if (!reader.any() && matched_lines == 0) {
    return make(k_infos[0],
                "Nothing in the text was recognised: no known error message and no tool output gpudoctor reads. This "
                "is not a clean bill of health.",
                {fmt::format("read {} line(s), {} byte(s)", lines, bytes)}, next_step(facts::Facts{}));
  }
  std::vector<std::string> evidence;
  for (const auto& r : reader.readings()) {
    if (evidence.size() == k_shown_readings) break;
    evidence.push_back(fmt::format("line {}: {}", r.line, r.what));
  }
  if (reader.readings().size() > k_shown_readings) {
    evidence.push_back(fmt::format("{} more reading(s)", reader.readings().size() - k_shown_readings));
  }
  return make(k_infos[1],
              "The text was read, but nothing in it names a cause: no check finds one in the facts it shows, and no "
              "known error message says one.",
              std::move(evidence), next_step(reader.facts()));
}

}  // namespace gpudoctor::cli
