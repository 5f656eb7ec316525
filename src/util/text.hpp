// Small text helpers shared by probes and checks: trimming, splitting, strict number parsing.
// Strict means "0x10de\n" parses as hex 0x10de, and "12abc" does not parse at all.
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::util {

std::string_view trim(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
// Splits on runs of spaces and tabs.
std::vector<std::string_view> split_ws(std::string_view s);
std::vector<std::string_view> lines(std::string_view s);

std::optional<std::uint64_t> parse_uint(std::string_view s, int base = 10);
std::optional<std::int64_t> parse_int(std::string_view s);
// "0x10de" or "10de".
std::optional<std::uint32_t> parse_hex32(std::string_view s);

bool contains(std::string_view haystack, std::string_view needle);
// How many times `byte` occurs in `text`: eight bytes per step, for counting the lines of a
// block of log (std::count goes byte by byte at -O2).
std::size_t count_byte(std::string_view text, char byte);
bool contains_icase(std::string_view haystack, std::string_view needle);

// "550.54.14" -> {550, 54, 14}; nullopt unless every dot-separated part is a number.
std::optional<std::vector<int>> parse_version(std::string_view s);
// Compares dotted versions numerically; missing parts count as 0.
int compare_versions(const std::vector<int>& a, const std::vector<int>& b);

// Replaces bytes that are not valid UTF-8 with U+FFFD and control characters (but \t and \n)
// with '?', so text read from a hostile file can be printed and stored in JSON.
std::string sanitize_utf8(std::string_view s);

// Pasted text often carries typography that a program never printed: curly quotes from a word
// processor or a blog (couldn‘t, “cuda”), primes, and no-break spaces from HTML. Returns the text
// with those written as the ASCII a program prints (' " and a space), other bytes unchanged and no
// line break added or removed; `changed` says whether anything was replaced.
std::string fold_typography(std::string_view s, bool* changed = nullptr);
// Whether fold_typography would change anything (memchr for the second byte of each sequence).
bool has_typography(std::string_view s);

std::string join(const std::vector<std::string>& parts, std::string_view sep);

// Text safe to write to a terminal, for data gpudoctor did not write (file names, ELF strings, log
// lines, messages that quote them). Every C0 and C1 control character, DEL, and the Unicode
// bidirectional overrides and isolates (which reorder what a reader sees, "Trojan Source",
// CVE-2021-42574) become a visible escape: ESC is "\x1b", U+009B is "\u009b", U+202E is "\u202e".
// Invalid UTF-8 becomes U+FFFD. LineBreaks::keep leaves '\n' and '\t' alone (a multi-line
// message); LineBreaks::escape escapes them too (one field on one line: a path, an id).
enum class LineBreaks { keep, escape };
std::string printable(std::string_view s, LineBreaks breaks = LineBreaks::escape);

// Calls `f(rest)` for each use of the whole word `name` in `text` that is not an attribute
// (`x.name`), with `rest` the text right after the name: "foo" in "foo.cuda()" and "(foo)", not
// in "food" or "self.foo".
template <typename F>
void for_each_name_use(std::string_view text, std::string_view name, F&& f) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  if (name.empty()) return;
  for (auto at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    if (at > 0 && (word_char(text[at - 1]) || text[at - 1] == '.')) continue;
    auto rest = text.substr(at + name.size());
    if (!rest.empty() && word_char(rest.front())) continue;
    f(rest);
  }
}

}  // namespace gpudoctor::util
