// Signature: one row of data/signatures.tsv, a message that PyTorch, TensorFlow, JAX, ONNX Runtime,
// NCCL, NVML or the CUDA runtime prints, with what it means. Several rows may share an id (variants
// of one message: an older wording, a warning and an exception form); the id is what a finding
// reports under and what docs/checks.md lists.
//
// The table is reviewed, compiled-in knowledge: it is parsed once, and a malformed row (bad
// severity, layer, rank or pattern) throws at first use; the table's tests keep that from shipping.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <facts/finding.hpp>

namespace gpudoctor::watch {

struct Signature {
  std::string id;  // "log.cuda_oom"
  facts::Severity severity = facts::Severity::error;
  facts::Layer layer = facts::Layer::run;  // the layer the cause lives in, not the printer's
  // Root-cause order: a lower rank is reported first. An OOM (10) comes before the cuDNN failure
  // (40) that it so often causes.
  int rank = 50;
  std::vector<std::string> explains;  // ids this message is a likely root cause of
  std::string title;    // one line, no placeholders: the catalogue summary of the id
  std::string pattern;  // RE2, Latin-1, unanchored; named groups (?P<size>...) for variable parts
  std::string cause;    // message template: "{size}" is replaced with the capture named size
  std::string fix;      // fix template, same placeholders
  std::string source;   // where the exact text was seen (source file or public report)
  std::string example;  // one real line, exactly as printed; a test matches it against pattern
};

// Every signature, in table order (row index = pattern index in LineMatcher).
std::span<const Signature> signatures();

// One catalogue entry per distinct id (first row's title, fix), for docs/checks.md. The views point
// into the static table and live for the whole program.
std::vector<facts::FindingInfo> signature_infos();

// Replaces each "{name}" in `text` with the value of capture `name`; an unknown or empty capture
// becomes "?" so a template never prints a raw placeholder.
std::string expand(std::string_view text, const std::vector<std::pair<std::string, std::string>>& captures);

}  // namespace gpudoctor::watch
