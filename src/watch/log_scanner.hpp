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

  std::uint64_t lines_seen() const { return m_line_number; }
  std::uint64_t bytes_seen() const { return m_bytes; }
  std::uint64_t match_count() const { return m_match_count; }

  // One finding per distinct message (signature id + expanded message), most likely root cause
  // first: a message that another matched message explains (per the table's `explains` column)
  // comes after it and names it in explained_by; otherwise lower rank first, then first seen.
  // Evidence: the first lines with their line numbers, and "repeated N times" when it repeats.
  std::vector<facts::Finding> findings() const;

 private:
  struct Group {
    const Signature* signature = nullptr;
    std::string message;
    std::string fix;
    std::uint64_t count = 0;
    std::uint64_t first_line = 0;
    std::uint64_t last_line = 0;
    std::vector<std::string> evidence;  // "line 12: ..." for the first few occurrences
  };

  void scan_block(std::string_view block);  // complete lines only, '\n'-separated
  void scan_line(std::string_view line, const std::vector<int>& candidates);
  void record(const LineHit& hit, std::string_view line);

  const LineMatcher& m_matcher;
  MatchCallback m_on_match;
  std::string m_pending;            // a partial line carried to the next feed()
  std::uint64_t m_line_number = 1;  // the line the next byte belongs to
  std::uint64_t m_bytes = 0;
  std::uint64_t m_match_count = 0;
  std::vector<LineHit> m_hits;      // scratch
  std::map<std::pair<std::string, std::string>, std::size_t> m_group_index;  // (id, message) -> m_groups
  std::vector<Group> m_groups;
};

}  // namespace gpudoctor::watch
