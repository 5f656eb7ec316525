// Collecting node reports for the fleet join: report files, directories of them, and streams that
// hold several (concatenated `check --json` output, JSON lines, or `pdsh`/`clush`/`srun --label`
// output whose every line starts with "NODE: "). Every report that cannot be read becomes a
// NodeProblem with a message naming it; the others are still joined. Files are read in parallel,
// each bounded to k_max_report_bytes, and only the NodeReport summary is kept.
// Thread-safety: each call is independent.
#pragma once

#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include <fleet/join.hpp>

namespace gpudoctor::fleet {

// Reads each path: a report file, or a directory whose regular files (recursively, hidden ones
// skipped) are reports. "-" reads standard input.
FleetInput read_reports(const std::vector<std::string>& paths, std::istream& standard_input);

// Where a piece of a longer stream starts: its byte offset and how many reports came before it.
struct StreamPosition {
  std::size_t bytes = 0;
  std::size_t reports = 0;
  bool piece = false;  // a piece of a stream: its reports are numbered even when it holds one
};

// Reads every report in a stream's text. `source` names it in messages.
void read_report_stream(std::string_view text, std::string_view source, FleetInput& into, StreamPosition* at = nullptr);

// Reads reports from `in` as they come: a stream of JSON values (JSON lines, reports one after
// another) is read piece by piece, each piece ending where a line starts with '{', so memory holds
// one report and one chunk, however long the stream; a labelled stream (pdsh, clush) is read whole.
// `chunk`: how much is read at a time.
void read_report_input(std::istream& in, std::string_view source, FleetInput& into, std::size_t chunk = 1u << 20);

// Lines of the form "LABEL: text" (pdsh, clush, srun --label) grouped by label, in order of first
// appearance; empty when the text is not labelled that way (its first non-blank line starts with '{').
struct Labelled {
  std::string label;
  std::string text;
};
std::vector<Labelled> split_labelled_lines(std::string_view text);

}  // namespace gpudoctor::fleet
