#include <fleet/hostlist.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <tuple>

namespace gpudoctor::fleet {
namespace {

struct Name {
  std::string prefix;
  std::string digits;  // the numeric tail, "" when the name has none
  std::uint64_t number = 0;
  bool padded() const { return digits.size() > 1 && digits[0] == '0'; }
};

Name split_name(const std::string& name) {
  std::size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  Name n;
  n.prefix = name.substr(0, i);
  n.digits = name.substr(i);
  // Tails too long for a number stay part of the name: they never join a range.
  if (n.digits.size() > 18) {
    n.prefix = name;
    n.digits.clear();
  }
  if (!n.digits.empty()) std::from_chars(n.digits.data(), n.digits.data() + n.digits.size(), n.number);
  return n;
}

// Slurm's rule for joining b after a: same prefix, next number, and the same width unless neither
// is zero-padded.
bool joins(const Name& a, const Name& b) {
  if (a.digits.empty() || b.digits.empty() || a.prefix != b.prefix || b.number != a.number + 1) return false;
  return a.digits.size() == b.digits.size() || (!a.padded() && !b.padded());
}

struct Range {
  Name first;
  Name last;
};

std::string range_text(const Range& r) {
  if (r.first.number == r.last.number && r.first.digits == r.last.digits) return r.first.digits;
  return r.first.digits + "-" + r.last.digits;
}

}  // namespace

std::string compress_hostlist(std::vector<std::string> names) {
  std::vector<Name> parsed;
  parsed.reserve(names.size());
  for (const auto& n : names) parsed.push_back(split_name(n));
  std::sort(parsed.begin(), parsed.end(), [](const Name& a, const Name& b) {
    return std::tuple(a.prefix, a.digits.empty() ? 0 : 1, a.number, a.digits.size()) <
           std::tuple(b.prefix, b.digits.empty() ? 0 : 1, b.number, b.digits.size());
  });
  parsed.erase(std::unique(parsed.begin(), parsed.end(),
                           [](const Name& a, const Name& b) { return a.prefix == b.prefix && a.digits == b.digits; }),
               parsed.end());
  std::vector<Range> ranges;
  for (auto& n : parsed) {
    if (!ranges.empty() && joins(ranges.back().last, n)) {
      ranges.back().last = std::move(n);
    } else {
      ranges.push_back({n, n});
    }
  }
  std::string out;
  for (std::size_t i = 0; i < ranges.size();) {
    if (!out.empty()) out += ',';
    const Range& r = ranges[i];
    if (r.first.digits.empty()) {
      out += r.first.prefix;
      ++i;
      continue;
    }
    // Every numbered range with this prefix goes into one bracket.
    std::size_t j = i;
    std::vector<std::string> parts;
    while (j < ranges.size() && !ranges[j].first.digits.empty() && ranges[j].first.prefix == r.first.prefix) {
      parts.push_back(range_text(ranges[j]));
      ++j;
    }
    if (parts.size() == 1 && r.first.digits == r.last.digits) {
      out += r.first.prefix + r.first.digits;
    } else {
      out += r.first.prefix + "[" + fmt::format("{}", fmt::join(parts, ",")) + "]";
    }
    i = j;
  }
  return out;
}

namespace {

sys::Error bad(std::string_view expr, std::string_view why) {
  return {sys::ErrorCode::invalid, fmt::format("hostlist \"{}\": {}", expr, why)};
}

// Expands one comma-free item (brackets may hold commas) into out.
sys::Expected<bool> expand_item(std::string_view item, std::string_view whole, std::size_t limit,
                                std::vector<std::string>& out) {
  std::size_t open = item.find('[');
  if (open == std::string_view::npos) {
    if (item.find(']') != std::string_view::npos) return bad(whole, "']' without '['");
    if (out.size() >= limit) return bad(whole, fmt::format("more than {} names", limit));
    out.emplace_back(item);
    return true;
  }
  std::size_t close = item.find(']', open);
  if (close == std::string_view::npos) return bad(whole, "'[' without ']'");
  std::string_view prefix = item.substr(0, open);
  std::string_view inner = item.substr(open + 1, close - open - 1);
  std::string_view rest = item.substr(close + 1);
  if (inner.empty()) return bad(whole, "empty brackets");
  std::size_t start = 0;
  while (start <= inner.size()) {
    std::size_t comma = inner.find(',', start);
    std::string_view part = inner.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    std::size_t dash = part.find('-');
    std::string_view lo = part.substr(0, dash);
    std::string_view hi = dash == std::string_view::npos ? lo : part.substr(dash + 1);
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    auto ra = std::from_chars(lo.data(), lo.data() + lo.size(), a);
    auto rb = std::from_chars(hi.data(), hi.data() + hi.size(), b);
    if (lo.empty() || hi.empty() || lo.size() > 18 || hi.size() > 18 || ra.ptr != lo.data() + lo.size() ||
        rb.ptr != hi.data() + hi.size())
      return bad(whole, fmt::format("\"{}\" is not a number or a range", part));
    if (b < a) return bad(whole, fmt::format("range \"{}\" counts down", part));
    if (b - a >= limit) return bad(whole, fmt::format("more than {} names", limit));
    std::size_t width = lo.size();
    for (std::uint64_t n = a; n <= b; ++n) {
      std::string name = fmt::format("{}{:0{}}", prefix, n, width);
      auto more = expand_item(name + std::string(rest), whole, limit, out);
      if (!more) return more.error();
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return true;
}

}  // namespace

sys::Expected<std::vector<std::string>> expand_hostlist(std::string_view expr, std::size_t limit) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= expr.size(); ++i) {
    char c = i < expr.size() ? expr[i] : ',';
    if (c == '[') {
      if (++depth > 1) return bad(expr, "nested brackets");
    } else if (c == ']') {
      if (--depth < 0) return bad(expr, "']' without '['");
    } else if ((c == ',' || c == ' ') && depth == 0) {
      std::string_view item = expr.substr(start, i - start);
      if (!item.empty()) {
        auto r = expand_item(item, expr, limit, out);
        if (!r) return r.error();
      }
      start = i + 1;
    }
  }
  if (depth != 0) return bad(expr, "'[' without ']'");
  return out;
}

}  // namespace gpudoctor::fleet
