// ScanConfig: the `[tool.gpudoctor]` table of a project's pyproject.toml.
//
//   [tool.gpudoctor]
//   select = ["code.inputs_not_moved", ...]   # only these rules (default: all)
//   ignore = ["code.no_mixed_precision"]      # rules off
//   exclude = ["notebooks/scratch/*", "*_test.py"]  # glob patterns on paths relative to the scanned dir
//   max_file_mb = 32                          # larger files are skipped with a note
//   include_tests = true                      # scan test files too (default: skipped)
//   [tool.gpudoctor.severity]
//   "code.sync_in_loop" = "error"
//
// Unknown keys and rule ids are errors: a typo must not silently turn a rule off.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <facts/finding.hpp>
#include <scan/source.hpp>
#include <sys/error.hpp>

namespace gpudoctor::scan {

struct ScanConfig {
  std::optional<std::set<std::string>> selected;
  std::set<std::string> ignored;
  std::map<std::string, facts::Severity> severity;
  std::vector<std::string> exclude;
  std::uint64_t max_file_bytes = k_default_max_file_bytes;
  // Test files (under tests/ or test/, test_*.py, *_test.py, conftest.py) found in a directory are
  // skipped unless this is set (--include-tests): they build CPU tensors and tiny models on purpose.
  bool include_tests = false;
  std::string origin;  // the pyproject.toml whose [tool.gpudoctor] table was read; empty when none

  bool enabled(std::string_view id) const;
  bool excluded(std::string_view relative_path) const;
};

sys::Expected<ScanConfig> parse_config(std::string_view toml_text, const std::string& origin);
// Reads a pyproject.toml (bounded to 1 MiB). A file without [tool.gpudoctor] gives the defaults.
sys::Expected<ScanConfig> load_config(const std::string& path);
// The nearest pyproject.toml in `start` (a file's directory or a directory) or above it.
std::optional<std::string> find_pyproject(const std::string& start);

}  // namespace gpudoctor::scan
