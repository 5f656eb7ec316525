// Hostile and broken input: the scan reports what it can and says what it could not, and never
// crashes, hangs or recurses past the stack.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <scan/analyzer.hpp>
#include <scan/scanner.hpp>
#include <scan/source.hpp>

namespace gpudoctor::scan {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::path(GPUDOCTOR_BINARY_DIR) / "scan_test_tmp" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(BadInput, BinaryFileNamedPyIsSkippedWithANote) {
  std::string elf = std::string("\x7f" "ELF\x02\x01\x01", 7) + std::string(64, '\0') + "import torch\n";
  auto src = python_source("lib.py", elf);
  ASSERT_FALSE(src);
  EXPECT_NE(src.error().message.find("binary"), std::string::npos);
}

TEST(BadInput, InvalidUtf8IsScannedAndNoted) {
  std::string text = "import torch\nname = '\xff\xfe'\nx = torch.zeros(3)\nx.cuda()\n";
  auto src = python_source("latin1.py", text);
  ASSERT_TRUE(src);
  ASSERT_EQ(src->notes.size(), 1u);
  auto result = analyze(*src);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].id, "code.to_result_discarded");
  EXPECT_EQ(result.findings[0].location->line, 4);
}

TEST(BadInput, SyntaxErrorGivesPartialResultsAndANote) {
  std::string text =
      "import torch\n"
      "t = torch.ones(2)\n"
      "t.cuda()\n"
      "def broken(:\n"
      "    pass\n"
      "u = torch.zeros(2)\n"
      "u.to('cuda')\n";
  auto src = python_source("broken.py", text);
  ASSERT_TRUE(src);
  auto result = analyze(*src);
  ASSERT_FALSE(result.notes.empty());
  EXPECT_NE(result.notes[0].find("syntax error"), std::string::npos) << result.notes[0];
  ASSERT_GE(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].location->line, 3);
}

// Valid Python the pinned grammar does not parse (a starred list on the right of an unpacking
// assignment, as torch/distributed/elastic/rendezvous/utils.py writes it): the note names the line
// where the parser stopped, not line 1.
TEST(BadInput, UnparsedConstructIsReportedAtItsLine) {
  std::string text =
      "import torch\n"
      "def f(endpoint):\n"
      "    a = 1\n"
      "    host, *rest = endpoint, *[]\n"
      "    return host\n";
  auto src = python_source("starred.py", text);
  ASSERT_TRUE(src);
  auto result = analyze(*src);
  ASSERT_FALSE(result.notes.empty());
  EXPECT_NE(result.notes[0].find("syntax error at line 4"), std::string::npos) << result.notes[0];
}

TEST(BadInput, DeepNestingDoesNotOverflowTheStack) {
  constexpr int k_depth = 5000;
  std::string parens = "import torch\nx = " + std::string(k_depth, '(') + "torch.zeros(1)" + std::string(k_depth, ')') + "\n";
  std::string blocks = "import torch\n";
  for (int i = 0; i < k_depth; ++i) blocks += std::string(static_cast<std::size_t>(i), ' ') + "if x:\n";
  blocks += std::string(k_depth, ' ') + "torch.zeros(1).cuda()\n";
  std::string calls = "import torch\ny = " ;
  for (int i = 0; i < k_depth; ++i) calls += "f(";
  calls += "1" + std::string(k_depth, ')') + ".to('cuda')\n";
  for (const auto& text : {parens, blocks, calls}) {
    auto src = python_source("deep.py", text);
    ASSERT_TRUE(src);
    auto result = analyze(*src);  // must return; the content is mostly beside the point
    SUCCEED() << result.findings.size();
  }
}

// A 100 MB source file (generated modules exist) is skipped with a note rather than read; the
// bound is configurable (max_file_mb), and reads never exceed it.
TEST(BadInput, HugeFileIsSkippedWithANote) {
  fs::path dir = temp_dir("huge");
  fs::path big = dir / "big.py";
  {
    std::ofstream out(big, std::ios::binary);
    std::string line = "value = compute(1, 2, 3)  # filler line of a generated module\n";
    for (std::uint64_t written = 0; written < (100ull << 20); written += line.size()) out << line;
  }
  ScanConfig config;
  auto skipped = scan_files({{big.string(), "big.py", "big.py"}}, config, 1);
  EXPECT_EQ(skipped.files, 0u);
  EXPECT_EQ(skipped.bytes, 0u);
  ASSERT_EQ(skipped.notes.size(), 1u);
  EXPECT_NE(skipped.notes[0].find("100 MiB is over the 32 MiB limit"), std::string::npos) << skipped.notes[0];
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpudoctor::scan
