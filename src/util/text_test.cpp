#include <util/text.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace gpudoctor::util {
namespace {

TEST(Text, ParseHexIsStrict) {
  EXPECT_EQ(parse_hex32("0x10de\n"), 0x10deu);
  EXPECT_EQ(parse_hex32("10DE"), 0x10deu);
  EXPECT_FALSE(parse_hex32("0x10dz"));
  EXPECT_FALSE(parse_hex32(""));
  EXPECT_FALSE(parse_hex32("0x1ffffffff"));
}

TEST(Text, ParseVersion) {
  EXPECT_EQ(parse_version("550.54.14"), (std::vector<int>{550, 54, 14}));
  EXPECT_FALSE(parse_version("550.x"));
  EXPECT_LT(compare_versions({535, 104}, {550}), 0);
  EXPECT_EQ(compare_versions({12, 4, 0}, {12, 4}), 0);
}

TEST(Text, SanitizeUtf8ReplacesInvalidBytesAndControls) {
  EXPECT_EQ(sanitize_utf8("ok \xc3\xa9"), "ok \xc3\xa9");
  EXPECT_EQ(sanitize_utf8("bad \xff\xfe"), "bad \xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(sanitize_utf8("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");  // overlong '/'
  EXPECT_EQ(sanitize_utf8(std::string("a\0b\x1b", 4)), "a?b?");
  EXPECT_EQ(sanitize_utf8("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");  // truncated sequence
}

TEST(Text, SplitAndTrim) {
  EXPECT_EQ(trim("  a b \n"), "a b");
  auto f = split_ws("nvidia_uvm 1437696 0 - Live 0x0");
  ASSERT_EQ(f.size(), 6u);
  EXPECT_EQ(f[4], "Live");
  EXPECT_EQ(split("a,,b", ',').size(), 3u);
}

TEST(Printable, EscapesTerminalControlsInData) {
  // An OSC title change and a screen clear, as a hostile file name would carry them.
  EXPECT_EQ(printable("a\x1b]0;title\x07" "b\x1b[2J.py"), "a\\x1b]0;title\\x07b\\x1b[2J.py");
  EXPECT_EQ(printable("line\nnext\ttab"), "line\\x0anext\\x09tab");
  EXPECT_EQ(printable("line\nnext\ttab", LineBreaks::keep), "line\nnext\ttab");
  EXPECT_EQ(printable("del\x7f"), "del\\x7f");
  // C1 CSI (U+009B) and a right-to-left override, both valid UTF-8.
  EXPECT_EQ(printable("\xc2\x9b" "2J"), "\\u009b2J");
  EXPECT_EQ(printable("evil\xe2\x80\xaeyp.py"), "evil\\u202eyp.py");
  EXPECT_EQ(printable("ok \xc3\xa9 \xe2\x9c\x96"), "ok \xc3\xa9 \xe2\x9c\x96");
  EXPECT_EQ(printable("bad \xff"), "bad \xef\xbf\xbd");
}

// Every length and alignment around the 16-byte steps, every byte value next to the one counted
// (0x0a is counted; 0x0b, 0x8a, 0xff, 0x00 are not), against a plain count.
TEST(Text, CountByteMatchesAPlainCount) {
  std::string text;
  const char others[] = {'\x0b', '\x09', '\x8a', '\xff', '\x00', '\x7f', '\x80', 'a'};
  for (std::size_t i = 0; i < 300; ++i) text += (i % 3 == 0 || i % 7 == 0) ? '\n' : others[i % 8];
  for (std::size_t from = 0; from < 16; ++from) {
    for (std::size_t len = 0; from + len <= text.size(); len += 5) {
      auto part = std::string_view(text).substr(from, len);
      EXPECT_EQ(count_byte(part, '\n'), static_cast<std::size_t>(std::count(part.begin(), part.end(), '\n')))
          << from << " " << len;
    }
  }
  EXPECT_EQ(count_byte(std::string(64, '\xff'), '\xff'), 64u);
  EXPECT_EQ(count_byte("", '\n'), 0u);
  // Long runs of the byte: each lane's count is flushed before it could pass 255.
  EXPECT_EQ(count_byte(std::string(100'003, '\n'), '\n'), 100'003u);
  EXPECT_EQ(count_byte(std::string(4'080, '\n') + std::string(4'081, '\n'), '\n'), 8'161u);
}

// Typography of pasted text becomes the ASCII a program printed; other UTF-8 and line breaks stay.
TEST(Text, FoldTypographyTurnsCurlyQuotesAndNoBreakSpacesIntoAscii) {
  bool changed = true;
  EXPECT_EQ(fold_typography("plain 'ascii' text\n", &changed), "plain 'ascii' text\n");
  EXPECT_FALSE(changed);
  EXPECT_FALSE(has_typography("plain 'ascii' text"));
  const std::string pasted = "NVIDIA-SMI has failed because it couldn\xe2\x80\x99t communicate\xc2\xa0with the "
                             "\xe2\x80\x9c" "NVIDIA\xe2\x80\x9d driver\n\xe2\x80\x98x\xe2\x80\xb2 \xe2\x80\xb3";
  EXPECT_TRUE(has_typography(pasted));
  EXPECT_EQ(fold_typography(pasted, &changed),
            "NVIDIA-SMI has failed because it couldn't communicate with the \"NVIDIA\" driver\n'x' \"");
  EXPECT_TRUE(changed);
  // An ellipsis, an en dash and a right-to-left override share the lead bytes and stay as they are.
  const std::string other = "wait\xe2\x80\xa6 a\xe2\x80\x93" "b \xe2\x80\xae \xc3\xa9";
  EXPECT_EQ(fold_typography(other, &changed), other);
  EXPECT_FALSE(changed);
  EXPECT_FALSE(has_typography(other));
  EXPECT_FALSE(has_typography("\xe2\x96\x88\xe2\x96\x88 50% \xe2\x94\x80\xe2\x94\x80"));  // progress bar, box line
  EXPECT_TRUE(has_typography("\xe2\x80\x9d"));
  EXPECT_TRUE(has_typography("a\xc2\xa0" "b"));
  EXPECT_FALSE(has_typography("\xa0\x80"));
  // Truncated sequences at the end are copied, never read past.
  EXPECT_EQ(fold_typography("end\xe2\x80"), "end\xe2\x80");
  EXPECT_EQ(fold_typography("end\xc2"), "end\xc2");
}

}  // namespace
}  // namespace gpudoctor::util
