// LogScanner: the incremental front end of log matching, for both `gpudoctor explain` (a file or
// stdin, read in chunks) and `gpudoctor run`/`watch` (the child's output as it streams). Feed it
// bytes in chunks of any size; it splits lines across chunk boundaries itself, so a message cut in
// two by a read() is still matched.
//
//   LogScanner scanner;                       // every signature (LineMatcher::instance())
//   scanner.set_on_match([&](const LogMatch& m) { timeline.add_event(now(), m); });  // optional
//   while (read(fd, buf)) scanner.feed(buf);
//   scanner.finish();                         // matches a last line without a trailing newline
//   std::vector<facts::Finding> f = scanner.findings();  // root cause first, de-duplicated
//
// Lines end at '\n'; a '\r' also ends a line for matching (progress bars redraw with '\r', and an
// error printed after a redraw would otherwise sit at the end of a 1 MB "line"), but only '\n'
// advances the line number. Memory stays bounded whatever the input: at most k_max_line_bytes of a
// pending partial line, plus the matches themselves (per distinct message, a count and the first
// few lines).
//
// Thread-safety: none; one scanner per stream. The on_match callback runs inside feed()/finish().
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <facts/finding.hpp>
#include <watch/line_matcher.hpp>

namespace gpudoctor::watch {

// Distinct lines kept as evidence per finding; further distinct lines are only counted.
inline constexpr std::size_t k_max_evidence_lines = 3;
// Evidence lines are shortened to this many bytes for display.
inline constexpr std::size_t k_evidence_line_bytes = 400;

struct LogMatch {
  const Signature* signature = nullptr;
  std::uint64_t line_number = 0;  // 1-based, counting '\n'
  std::string line;               // the matching line, as bytes (not sanitised), at most k_max_line_bytes
  std::vector<std::pair<std::string, std::string>> captures;
};

class LogScanner {
 public:
  using MatchCallback = std::function<void(const LogMatch&)>;

  explicit LogScanner(const LineMatcher& matcher = LineMatcher::instance());

  // Called once per matching line, as soon as the line is complete.
  void set_on_match(MatchCallback callback) { m_on_match = std::move(callback); }

  void feed(std::string_view chunk);
  // Ends the stream: matches a pending last line. Further feed() calls start a new line.
  void finish();

  // Lines seen so far, counting a pending partial line.
  std::uint64_t lines_seen() const { return m_line_number - 1 + (m_pending.empty() ? 0 : 1); }
  std::uint64_t bytes_seen() const { return m_bytes; }
  std::uint64_t match_count() const { return m_match_count; }

  // One finding per id, however many lines and variants matched, most likely root cause first: a message that another matched message explains (per the table's `explains` column)
  // comes after it and names it in explained_by; otherwise lower rank first, then first seen.
  // The message and fix are the templates of the most specific row matched, filled with the
  // captures of every matching line of that id. Evidence: the distinct matching lines with their
  // line numbers ("line 12: ..."), each with a repeat count when it repeats.
  std::vector<facts::Finding> findings() const;

 private:
  struct EvidenceLine {
    std::string text;  // the line, shortened for display (raw bytes; sanitised when rendered)
    std::uint64_t first_line = 0;
    std::uint64_t last_line = 0;
    std::uint64_t count = 0;
  };
  // Every match of one id, however many rows (variants) and lines it came from.
  struct Group {
    std::size_t best_row = 0;  // the lowest table row matched: its cause/fix templates are used
    facts::Severity severity = facts::Severity::info;
    std::uint64_t count = 0;
    std::uint64_t first_line = 0;
    std::vector<std::pair<std::string, std::string>> captures;  // first non-empty value of each name
    std::vector<EvidenceLine> evidence;  // distinct lines, at most k_max_evidence_lines
  };

  void scan_complete_lines(std::string_view text);  // text ends with '\n'
  void scan_block(std::string_view block);          // '\n'-separated lines, the last may lack one
  void scan_line(std::string_view line, const std::vector<int>& candidates);
  void record(const LineHit& hit, std::string_view line);
  void append_pending(std::string_view bytes);

  const LineMatcher& m_matcher;
  MatchCallback m_on_match;
  std::string m_pending;            // a partial line carried to the next feed()
  std::uint64_t m_line_number = 1;  // the line the next byte belongs to
  std::uint64_t m_bytes = 0;
  std::uint64_t m_match_count = 0;
  std::vector<LineHit> m_hits;      // scratch, reused across lines
  std::vector<std::size_t> m_line_starts;  // scratch: offsets of the lines of a block that match
  std::map<std::string, std::size_t, std::less<>> m_group_index;  // id -> m_groups
  std::vector<Group> m_groups;
};

}  // namespace gpudoctor::watch
