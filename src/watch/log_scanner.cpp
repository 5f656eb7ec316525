#include <watch/log_scanner.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include <util/text.hpp>

namespace gpudoctor::watch {
namespace {

// The set is run over blocks of about this many bytes of whole lines, so its per-call cost vanishes
// on the ordinary output that makes up nearly all of a log.
constexpr std::size_t k_block_bytes = 64 * 1024;

bool more_severe(facts::Severity a, facts::Severity b) { return facts::rank(a) < facts::rank(b); }

}  // namespace

LogScanner::LogScanner(const LineMatcher& matcher) : m_matcher(matcher) {}

void LogScanner::feed(std::string_view chunk) {
  m_bytes += chunk.size();
  if (!m_pending.empty()) {
    std::size_t nl = chunk.find('\n');
    if (nl == std::string_view::npos) {
      append_pending(chunk);
      return;
    }
    append_pending(chunk.substr(0, nl + 1));
    chunk.remove_prefix(nl + 1);
    if (!m_pending.empty()) {
      std::string line;
      line.swap(m_pending);
      scan_block(line);
    }
  }
  std::size_t last_nl = chunk.rfind('\n');
  if (last_nl == std::string_view::npos) {
    append_pending(chunk);
    return;
  }
  scan_complete_lines(chunk.substr(0, last_nl + 1));
  append_pending(chunk.substr(last_nl + 1));
}

void LogScanner::finish() {
  if (m_pending.empty()) return;
  std::string line;
  line.swap(m_pending);
  scan_block(line);
  ++m_line_number;  // the unterminated last line counts as a line
}

void LogScanner::append_pending(std::string_view bytes) {
  // A partial line never grows past k_max_line_bytes: the window that is full is matched now (as
  // part of the same line number) and dropped, so a 100 MB line costs 64 KiB of memory.
  while (!bytes.empty()) {
    if (m_pending.size() >= k_max_line_bytes) {
      std::string window;
      window.swap(m_pending);
      scan_block(window);  // no '\n' inside: the line number stays
    }
    std::size_t take = std::min(k_max_line_bytes - m_pending.size(), bytes.size());
    m_pending.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
  }
}

void LogScanner::scan_complete_lines(std::string_view text) {
  while (!text.empty()) {
    std::size_t end = text.size();
    if (end > k_block_bytes) {
      std::size_t nl = text.rfind('\n', k_block_bytes);
      end = nl == std::string_view::npos ? text.find('\n', k_block_bytes) + 1 : nl + 1;
    }
    scan_block(text.substr(0, end));
    text.remove_prefix(end);
  }
}

void LogScanner::scan_block(std::string_view block) {
  // Curly quotes and no-break spaces of pasted text are read as the ASCII the program printed.
  std::string folded;
  if (util::has_typography(block)) {
    folded = util::fold_typography(block);
    block = folded;
  }
  std::vector<int> candidates = m_matcher.candidates(block);
  auto newlines = [](std::string_view text) {
    return static_cast<std::uint64_t>(util::count_byte(text, '\n'));
  };
  if (candidates.empty()) {
    m_line_number += newlines(block);
    return;
  }
  // Find the lines that hold a match: each candidate's own search skips through the block (a
  // small DFA, no captures), instead of every candidate running on every line.
  m_line_starts.clear();
  for (int pattern : candidates) {
    std::size_t from = 0;
    std::size_t start = 0;
    while (from < block.size() && m_matcher.find(pattern, block, from, start)) {
      std::size_t line_start = block.rfind('\n', start);
      m_line_starts.push_back(line_start == std::string_view::npos ? 0 : line_start + 1);
      std::size_t line_end = block.find('\n', start);
      if (line_end == std::string_view::npos) break;
      from = line_end + 1;
    }
  }
  std::sort(m_line_starts.begin(), m_line_starts.end());
  m_line_starts.erase(std::unique(m_line_starts.begin(), m_line_starts.end()), m_line_starts.end());
  std::size_t at = 0;
  for (std::size_t line_start : m_line_starts) {
    m_line_number += newlines(block.substr(at, line_start - at));
    at = line_start;
    std::string_view line = block.substr(line_start, block.find('\n', line_start) - line_start);
    // '\r' ends a line for matching (progress bars redraw with it) but not for numbering.
    while (!line.empty()) {
      std::size_t cr = line.find('\r');
      std::string_view part = line.substr(0, cr);
      for (std::size_t w = 0; w < part.size(); w += k_max_line_bytes) {
        scan_line(part.substr(w, k_max_line_bytes), candidates);
      }
      if (cr == std::string_view::npos) break;
      line.remove_prefix(cr + 1);
    }
  }
  m_line_number += newlines(block.substr(at));
}

void LogScanner::scan_line(std::string_view line, const std::vector<int>& candidates) {
  m_hits.clear();
  m_matcher.match_line(line, candidates, m_hits);
  // Rows of one id are variants of one message, most specific first: a line counts once per id.
  std::set<std::string_view> ids;
  for (const LineHit& hit : m_hits) {
    if (ids.insert(m_matcher.table()[hit.signature].id).second) record(hit, line);
  }
}

void LogScanner::record(const LineHit& hit, std::string_view line) {
  const Signature& sig = m_matcher.table()[hit.signature];
  ++m_match_count;
  if (m_on_match) m_on_match(LogMatch{&sig, m_line_number, std::string(line), hit.captures});

  auto [it, inserted] = m_group_index.try_emplace(sig.id, m_groups.size());
  if (inserted) {
    Group g;
    g.best_row = hit.signature;
    g.severity = sig.severity;
    g.first_line = m_line_number;
    m_groups.push_back(std::move(g));
  }
  Group& g = m_groups[it->second];
  ++g.count;
  g.best_row = std::min(g.best_row, hit.signature);
  if (more_severe(sig.severity, g.severity)) g.severity = sig.severity;
  for (const auto& capture : hit.captures) {
    const auto& name = capture.first;  // not a structured binding: clang 14 cannot capture one (fuzz build)
    bool known = std::any_of(g.captures.begin(), g.captures.end(), [&](const auto& c) { return c.first == name; });
    if (!known && !capture.second.empty()) g.captures.emplace_back(name, capture.second);
  }
  std::string_view shown = line.substr(0, k_evidence_line_bytes);
  for (EvidenceLine& e : g.evidence) {
    if (e.text == shown) {
      ++e.count;
      e.last_line = m_line_number;
      return;
    }
  }
  if (g.evidence.size() < k_max_evidence_lines) {
    g.evidence.push_back(EvidenceLine{std::string(shown), m_line_number, m_line_number, 1});
  }
}

std::vector<facts::Finding> LogScanner::findings() const {
  const auto table = m_matcher.table();
  // What each id explains, over all its rows: the relation is between messages, not variants.
  std::map<std::string_view, std::set<std::string_view>> explains;
  for (const Signature& s : table) {
    for (const std::string& e : s.explains) explains[s.id].insert(e);
  }
  struct Ranked {
    facts::Finding finding;
    int rank = 0;
    std::uint64_t first_line = 0;
  };
  std::vector<Ranked> ranked;
  for (const Group& g : m_groups) {
    const Signature& best = table[g.best_row];
    facts::Finding f;
    f.id = best.id;
    f.layer = best.layer;
    f.severity = g.severity;
    f.message = util::sanitize_utf8(expand(best.cause, g.captures));
    f.fix = util::sanitize_utf8(expand(best.fix, g.captures));
    f.docs = facts::docs_anchor(best.id);
    std::uint64_t shown = 0;
    for (const EvidenceLine& e : g.evidence) {
      std::string text = util::sanitize_utf8(e.text);
      if (e.count > 1) {
        f.evidence.push_back(fmt::format("line {}: {} (repeated {} times, last at line {})", e.first_line, text,
                                         e.count, e.last_line));
      } else {
        f.evidence.push_back(fmt::format("line {}: {}", e.first_line, text));
      }
      shown += e.count;
    }
    if (g.count > shown) f.evidence.push_back(fmt::format("{} more matching lines", g.count - shown));
    for (const Group& other : m_groups) {
      const std::string& other_id = table[other.best_row].id;
      if (other_id != f.id && explains[other_id].count(f.id)) f.explained_by.push_back(other_id);
    }
    ranked.push_back(Ranked{std::move(f), best.rank, g.first_line});
  }
  // Root cause first: what nothing else explains, then by the table's rank, then by first sight.
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    bool ea = !a.finding.explained_by.empty();
    bool eb = !b.finding.explained_by.empty();
    if (ea != eb) return !ea;
    if (a.rank != b.rank) return a.rank < b.rank;
    return a.first_line < b.first_line;
  });
  std::vector<facts::Finding> out;
  out.reserve(ranked.size());
  for (Ranked& r : ranked) out.push_back(std::move(r.finding));
  return out;
}

}  // namespace gpudoctor::watch
