// Finding: what a check, a code rule, a log signature or a run verdict concludes, with the evidence
// that led there and the fix. FindingInfo is the catalogue entry behind every finding id: the
// registries of checks, code rules and log signatures are tables of FindingInfo, and docs/checks.md
// is generated from them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::facts {

enum class Layer { environment, driver, framework, code, run };
enum class Severity { error, warning, info };

const char* to_string(Layer layer);
const char* to_string(Severity severity);
// Lower ranks are reported first: an environment fault explains a framework symptom, not the reverse.
int rank(Layer layer);
int rank(Severity severity);

struct FindingInfo {
  std::string_view id;       // dotted lower_snake, stable forever: "driver.version_mismatch"
  Layer layer = Layer::environment;
  Severity severity = Severity::error;  // the default; a check may lower or raise it per instance
  std::string_view summary;  // one line
  std::string_view trigger;  // what makes it fire
  std::string_view fix;      // the generic fix; instances may be more specific
};

struct SourceLocation {
  std::string file;
  int line = 0;    // 1-based
  int column = 0;  // 1-based
  std::string cell;  // notebook cell label ("cell [4]", "code cell 2"), "" for plain files
  int file_line = 0; // notebooks: the 1-based line of the .ipynb file that stores the cell's line; 0 unknown
  bool operator==(const SourceLocation&) const = default;
};

struct Finding {
  std::string id;
  Layer layer = Layer::environment;
  Severity severity = Severity::error;
  std::string message;
  std::vector<std::string> evidence;
  std::string fix;
  std::string docs;  // "docs/checks.md#driver.version_mismatch"
  std::optional<SourceLocation> location;
  std::vector<std::string> explained_by;  // ids of findings that are this one's root cause
  bool operator==(const Finding&) const = default;
};

// The anchor of an id in docs/checks.md.
std::string docs_anchor(std::string_view id);

// Sorts root cause first: by severity, where a cause counts as severe as the worst finding it
// explains (directly or through a chain), then causes before the findings they explain, then layer,
// then the given order (stable).
void sort_root_cause_first(std::vector<Finding>& findings);

}  // namespace gpudoctor::facts
