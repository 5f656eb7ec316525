#include <util/text.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace gpudoctor::util {

std::size_t count_byte(std::string_view text, char byte) {
  // 16 bytes at a time with the compiler's vector extension (SSE2 on x86-64, NEON on arm64): a
  // comparison gives -1 in each byte that holds `byte`, and subtracting it counts per lane. A lane
  // holds at most 255, so the lanes are summed into `n` every 255 rounds.
  using Bytes = unsigned char __attribute__((vector_size(16)));
  const Bytes needle = Bytes{} + static_cast<unsigned char>(byte);
  std::size_t n = 0;
  std::size_t i = 0;
  while (i + 16 <= text.size()) {
    Bytes counts{};
    for (int round = 0; round < 255 && i + 16 <= text.size(); ++round, i += 16) {
      Bytes chunk;
      std::memcpy(&chunk, text.data() + i, 16);
      counts -= reinterpret_cast<Bytes>(chunk == needle);
    }
    for (int lane = 0; lane < 16; ++lane) n += counts[lane];
  }
  for (; i < text.size(); ++i) n += text[i] == byte ? 1 : 0;
  return n;
}

std::string_view trim(std::string_view s) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    std::size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::vector<std::string_view> lines(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t pos = s.find('\n', start);
    if (pos == std::string_view::npos) pos = s.size();
    std::string_view line = s.substr(start, pos - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    start = pos + 1;
  }
  return out;
}

std::optional<std::uint64_t> parse_uint(std::string_view s, int base) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  std::int64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::uint32_t> parse_hex32(std::string_view s) {
  s = trim(s);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  auto v = parse_uint(s, 16);
  if (!v || *v > 0xffffffffu) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

bool contains_icase(std::string_view haystack, std::string_view needle) {
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != haystack.end();
}

std::optional<std::vector<int>> parse_version(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  std::vector<int> out;
  for (auto part : split(s, '.')) {
    auto v = parse_uint(part);
    if (!v || *v > 1000000) return std::nullopt;
    out.push_back(static_cast<int>(*v));
  }
  return out;
}

int compare_versions(const std::vector<int>& a, const std::vector<int>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    int x = i < a.size() ? a[i] : 0;
    int y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

namespace {

// Valid UTF-8 kept, every invalid byte replaced by U+FFFD; with ControlChars::replace, C0 controls
// (but \t and \n) and DEL become '?'.
enum class ControlChars { keep, replace };
std::string utf8_clean(std::string_view s, ControlChars controls) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      bool control = (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f;
      out += control && controls == ControlChars::replace ? '?' : static_cast<char>(c);
      ++i;
      continue;
    }
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if ((c & 0xe0) == 0xc0) { len = 2; cp = c & 0x1f; }
    else if ((c & 0xf0) == 0xe0) { len = 3; cp = c & 0x0f; }
    else if ((c & 0xf8) == 0xf0) { len = 4; cp = c & 0x07; }
    bool ok = len != 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) {
      if ((p[i + k] & 0xc0) != 0x80) ok = false;
      else cp = (cp << 6) | (p[i + k] & 0x3f);
    }
    // Reject overlong forms, surrogates and values past U+10FFFF.
    if (ok && ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
               (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)) {
      ok = false;
    }
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xef\xbf\xbd";
      ++i;
    }
  }
  return out;
}

}  // namespace

std::string sanitize_utf8(std::string_view s) { return utf8_clean(s, ControlChars::replace); }

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

namespace {

bool is_bidi_control(std::uint32_t cp) {
  return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

std::string printable(std::string_view s, LineBreaks breaks) {
  auto text = utf8_clean(s, ControlChars::keep);
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  for (std::size_t i = 0; i < text.size();) {
    unsigned char c = p[i];
    if (c < 0x80) {
      bool keep = c >= 0x20 && c != 0x7f;
      if (breaks == LineBreaks::keep && (c == '\n' || c == '\t')) keep = true;
      out += keep ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    // utf8_clean left only valid sequences.
    std::size_t len = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4;
    std::uint32_t cp = len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (p[i + k] & 0x3f);
    if ((cp >= 0x80 && cp <= 0x9f) || is_bidi_control(cp)) {
      out += fmt::format("\\u{:04x}", cp);
    } else {
      out.append(text, i, len);
    }
    i += len;
  }
  return out;
}


namespace {

// The ASCII for U+20xx whose last UTF-8 byte is `third`, 0 for the others: U+2018 ‘ U+2019 ’
// U+201B ‛ U+2032 ′ are an apostrophe; U+201C “ U+201D ” U+201E „ U+2033 ″ a quote.
char quote_ascii(unsigned char third) {
  if (third == 0x98 || third == 0x99 || third == 0x9b || third == 0xb2) return '\'';
  if (third == 0x9c || third == 0x9d || third == 0x9e || third == 0xb3) return '"';
  return 0;
}

}  // namespace

// Looks for the second byte of each sequence (0x80 of U+2018..U+2033, 0xa0 of U+00A0) with memchr
// and checks its neighbours: the lead byte 0xe2 alone is everywhere in progress bars (U+2588 █).
bool has_typography(std::string_view s) {
  const char* data = s.data();
  const std::size_t n = s.size();
  for (std::size_t i = 1; i + 1 < n;) {
    const void* hit = std::memchr(data + i, 0x80, n - 1 - i);
    if (hit == nullptr) break;
    i = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
    if (static_cast<unsigned char>(data[i - 1]) == 0xe2 && quote_ascii(static_cast<unsigned char>(data[i + 1])) != 0) {
      return true;
    }
    ++i;
  }
  for (std::size_t i = 1; i < n;) {
    const void* hit = std::memchr(data + i, 0xa0, n - i);
    if (hit == nullptr) break;
    i = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
    if (static_cast<unsigned char>(data[i - 1]) == 0xc2) return true;
    ++i;
  }
  return false;
}

std::string fold_typography(std::string_view s, bool* changed) {
  std::string out;
  out.reserve(s.size());
  bool any = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xa0) {
      out += ' ';  // U+00A0 no-break space
      ++i;
      any = true;
      continue;
    }
    if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80) {
      if (char ascii = quote_ascii(static_cast<unsigned char>(s[i + 2])); ascii != 0) {
        out += ascii;
        i += 2;
        any = true;
        continue;
      }
    }
    out += s[i];
  }
  if (changed != nullptr) *changed = any;
  return out;
}

}  // namespace gpudoctor::util
