// LineMatcher: every signature's pattern compiled once into one RE2::Set, so a log is scanned in
// one pass, in time linear in its size, whatever it contains (RE2 has no backtracking). Text is
// matched as Latin-1: every byte is a character, so invalid UTF-8 and NUL bytes are just text.
//
// Three steps, because nearly every line of a real log matches nothing: `candidates()` runs the set
// over a whole block of lines at once (one DFA pass, no per-line call overhead) and returns the
// patterns that match in it; `find()` runs one of those over the block to locate its lines; and
// `match_line()` runs the candidates on such a line to extract the named captures.
//
// Thread-safety: const after construction; instance() is built once (thread-safe static) and may be
// shared by any number of LogScanners on any threads.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <watch/signature.hpp>

namespace gpudoctor::watch {

// Lines longer than this are matched in windows of this size (a message split across a window edge
// is missed; real messages are far shorter). Keeps the per-line work bounded on hostile input.
inline constexpr std::size_t k_max_line_bytes = 64 * 1024;

struct LineHit {
  std::size_t signature = 0;  // index into signatures()
  std::vector<std::pair<std::string, std::string>> captures;  // (group name, captured bytes)
};

class LineMatcher {
 public:
  // The matcher over every row of data/signatures.tsv.
  static const LineMatcher& instance();

  // Compiles `table`; throws std::runtime_error naming the row if a pattern does not compile.
  // REQUIRES: `table` outlives the matcher.
  explicit LineMatcher(std::span<const Signature> table);
  ~LineMatcher();
  LineMatcher(const LineMatcher&) = delete;
  LineMatcher& operator=(const LineMatcher&) = delete;

  // The signature indices whose pattern matches within one of the lines of `block`, sorted. Empty
  // for the common case of a block of ordinary output. (Should RE2 run out of DFA memory on a
  // hostile block it reports every index: slower, never a missed message.)
  std::vector<int> candidates(std::string_view block) const;

  // Searches `text` from offset `from` for pattern `index` (no captures); on a match sets `start`
  // to the offset where it begins. Patterns never match across '\n' (RE2 never_nl), so the match
  // lies within one line of `text`.
  bool find(int index, std::string_view text, std::size_t from, std::size_t& start) const;

  // The signatures among `candidates` that match `line` (no newline inside), with their captures,
  // in candidate order.
  void match_line(std::string_view line, const std::vector<int>& candidates, std::vector<LineHit>& out) const;
  // Convenience for one line: candidates(line) then match_line.
  std::vector<LineHit> match_line(std::string_view line) const;

  std::span<const Signature> table() const { return m_table; }

 private:
  struct Compiled;  // the RE2 objects, kept out of this header
  std::span<const Signature> m_table;
  std::unique_ptr<Compiled> m_compiled;
};

}  // namespace gpudoctor::watch
