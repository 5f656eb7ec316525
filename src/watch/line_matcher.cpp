#include <watch/line_matcher.hpp>

#include <re2/re2.h>
#include <re2/set.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>
#include <stdexcept>

namespace gpudoctor::watch {
namespace {

// Latin-1: every byte is one character, so invalid UTF-8 or NUL bytes in a log are plain text and
// never make a match fail. The patterns themselves are ASCII, which means the same in both.
RE2::Options matcher_options() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  // No pattern may match across a line break, so a match found in a block of lines is a match in
  // one line, and a capture like [^(]+ stops at the end of its line.
  o.set_never_nl(true);
  // The set's DFA is built lazily as text is scanned; with ~100 patterns a few MB of states is
  // typical, and 64 MB leaves room for hostile input. If it is still exhausted, candidates() falls
  // back to "every pattern" (slower, never wrong).
  o.set_max_mem(int64_t{64} << 20);
  return o;
}

// The set only says which patterns may match a block; each candidate is then matched as written.
// So the set may take a looser pattern, one that matches whatever the row matches and more:
// - without word boundaries (\b, \B), which make its DFA track whether the last byte was a word
//   character in every state and slow the scan of every byte;
// - with a bounded repeat {0,N} or {1,N} read as * or + (N copies of a state become one).
std::string set_pattern(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size());
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char ch = pattern[i];
    if (ch == '\\' && i + 1 < pattern.size()) {
      char next = pattern[i + 1];
      if (!in_class && (next == 'b' || next == 'B')) {
        ++i;
        continue;
      }
      out += ch;
      out += next;
      ++i;
      continue;
    }
    if (!in_class && ch == '{' && i + 3 < pattern.size() && (pattern[i + 1] == '0' || pattern[i + 1] == '1') &&
        pattern[i + 2] == ',') {
      std::size_t j = i + 3;
      while (j < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[j])) != 0) ++j;
      if (j > i + 3 && j < pattern.size() && pattern[j] == '}') {
        out += pattern[i + 1] == '0' ? '*' : '+';
        i = j;
        continue;
      }
    }
    if (ch == '[') in_class = true;
    if (ch == ']') in_class = false;
    out += ch;
  }
  return out;
}

}  // namespace

struct LineMatcher::Compiled {
  explicit Compiled(const RE2::Options& options) : set(options, RE2::UNANCHORED) {}
  RE2::Set set;
  std::vector<std::unique_ptr<RE2>> patterns;
  std::vector<std::vector<std::pair<std::string, int>>> groups;  // per pattern: (name, group index)
};

const LineMatcher& LineMatcher::instance() {
  static const LineMatcher k_matcher(signatures());
  return k_matcher;
}

LineMatcher::LineMatcher(std::span<const Signature> table) : m_table(table) {
  RE2::Options options = matcher_options();
  m_compiled = std::make_unique<Compiled>(options);
  Compiled& c = *m_compiled;
  for (std::size_t i = 0; i < table.size(); ++i) {
    std::string error;
    if (c.set.Add(set_pattern(table[i].pattern), &error) != static_cast<int>(i)) {
      throw std::runtime_error(fmt::format("signature {} (row {}): bad pattern: {}", table[i].id, i + 1, error));
    }
    auto re = std::make_unique<RE2>(table[i].pattern, options);
    if (!re->ok()) throw std::runtime_error(fmt::format("signature {}: bad pattern: {}", table[i].id, re->error()));
    std::vector<std::pair<std::string, int>> groups(re->NamedCapturingGroups().begin(),
                                                    re->NamedCapturingGroups().end());
    std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    c.groups.push_back(std::move(groups));
    c.patterns.push_back(std::move(re));
  }
  if (!c.set.Compile()) throw std::runtime_error("signature set: out of memory compiling the patterns");
}

LineMatcher::~LineMatcher() = default;

std::vector<int> LineMatcher::candidates(std::string_view block) const {
  std::vector<int> out;
  RE2::Set::ErrorInfo info{};
  if (!m_compiled->set.Match(block, &out, &info) && info.kind != RE2::Set::kNoError) {
    // The DFA ran out of memory on this block: say every pattern may match, and let the per-line
    // matches decide. Slower for this block, never a missed message.
    out.resize(m_table.size());
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool LineMatcher::find(int index, std::string_view text, std::size_t from, std::size_t& start) const {
  re2::StringPiece match;
  if (!m_compiled->patterns[static_cast<std::size_t>(index)]->Match(text, from, text.size(), RE2::UNANCHORED, &match, 1)) {
    return false;
  }
  start = static_cast<std::size_t>(match.data() - text.data());
  return true;
}

void LineMatcher::match_line(std::string_view line, const std::vector<int>& candidates,
                             std::vector<LineHit>& out) const {
  std::vector<re2::StringPiece> groups;
  for (int index : candidates) {
    const RE2& re = *m_compiled->patterns[static_cast<std::size_t>(index)];
    groups.assign(static_cast<std::size_t>(re.NumberOfCapturingGroups()) + 1, re2::StringPiece());
    if (!re.Match(line, 0, line.size(), RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) continue;
    LineHit hit;
    hit.signature = static_cast<std::size_t>(index);
    for (const auto& [name, group] : m_compiled->groups[static_cast<std::size_t>(index)]) {
      const re2::StringPiece& g = groups[static_cast<std::size_t>(group)];
      if (g.data() != nullptr) hit.captures.emplace_back(name, std::string(g.data(), g.size()));
    }
    out.push_back(std::move(hit));
  }
}

std::vector<LineHit> LineMatcher::match_line(std::string_view line) const {
  std::vector<LineHit> out;
  match_line(line, candidates(line), out);
  return out;
}

}  // namespace gpudoctor::watch
