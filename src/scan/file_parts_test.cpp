// A very large file is analysed in parts (file_parts.hpp): the parts start only at top-level
// statements, definitions preferred; the kept imports keep rows and names; the findings are those of
// the whole file, at most k_max_findings_per_rule of a rule; a statement above the bound is skipped
// with a note.
#include <algorithm>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <scan/analyzer.hpp>
#include <scan/file_parts.hpp>
#include <scan/source.hpp>
#include <util/text.hpp>

namespace gpudoctor::scan {
namespace {

std::vector<std::string_view> heads(const std::string& text, const std::vector<FilePart>& parts) {
  std::vector<std::string_view> out;
  for (const auto& p : parts) out.push_back(std::string_view(text).substr(p.begin, 10));
  return out;
}

TEST(FileParts, SmallFileIsOnePart) {
  EXPECT_EQ(split_parts("x = 1\n", 1 << 20, 2 << 20), (std::vector<FilePart>{{0, 6, false}}));
  EXPECT_EQ(split_parts("", 1 << 20, 2 << 20), (std::vector<FilePart>{{0, 0, false}}));
  // Every statement larger than the part size is a part of its own.
  EXPECT_EQ(split_parts("import torch\ndef f():\n    pass\n", 1, 1 << 20),
            (std::vector<FilePart>{{0, 13, false}, {13, 31, false}}));
}

TEST(FileParts, PartsStartOnlyAtTopLevelStatements) {
  std::string text =
      "a = 1\n"
      "doc = \"\"\"\n"
      "def not_code():\n"          // inside a triple-quoted string
      "\"\"\"\n"
      "call(1,\n"
      "def_kw=2)\n"                // inside brackets
      "s = 'it''s'  # def x\n"
      "t = \"a \\\"\"\n"          // an escaped quote does not end the string
      "x = 1 + \\\n"
      "y\n"                        // a continued line
      "    def nested(): pass\n"  // indented: not top level
      "@decorator\n"
      "def real():\n"              // its decorator starts the statement
      "    pass\n"
      "if x:\n"
      "    pass\n"
      "else:\n"                    // continues the if
      "    pass\n"
      "try:\n"
      "    pass\n"
      "except ValueError:\n"
      "    pass\n"
      "finally:\n"
      "    pass\n"
      "elsewhere = 1\n"            // a name, not the keyword
      "class C:\n"
      "    pass\n";
  auto parts = split_parts(text, 1, 1 << 20);
  EXPECT_EQ(heads(text, parts), (std::vector<std::string_view>{"a = 1\ndoc ", "doc = \"\"\"\n", "call(1,\nde",
                                                                "s = 'it''s", "t = \"a \\\"\"", "x = 1 + \\\n",
                                                                "@decorator", "if x:\n    ", "try:\n    p",
                                                                "elsewhere ", "class C:\n "}));
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) EXPECT_EQ(parts[k].end, parts[k + 1].begin);
  EXPECT_EQ(parts.back().end, text.size());
}

TEST(FileParts, DefinitionsArePreferredAndLongRunsAreCutAnyway) {
  // Statements of 10 bytes; parts of at least 30 bytes end before a definition, or before any
  // statement once they hold 45.
  std::string text = "a0 = 1234\na1 = 1234\na2 = 1234\ndef f(): 0\n";  // a definition after 30 bytes
  for (int i = 0; i < 6; ++i) text += "b" + std::to_string(i) + " = 1234\n";
  auto parts = split_parts(text, 30, 1 << 20);
  EXPECT_EQ(heads(text, parts), (std::vector<std::string_view>{"a0 = 1234\n", "def f(): 0", "b4 = 1234\n"}));
}

TEST(FileParts, AGiantStatementIsAPartOfItsOwnAndTooLargeAboveTheBound) {
  std::string big = "W = [" + std::string(100, '1') + "]\n";
  std::string text = "x = 1\n" + big + "y = 2\n";
  auto parts = split_parts(text, 50, 80);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1], (FilePart{6, 6 + big.size(), true}));
  EXPECT_FALSE(parts[0].too_large);
  EXPECT_FALSE(parts[2].too_large);
  parts = split_parts(text, 50, 200);  // within the bound: analysed
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_FALSE(parts[1].too_large);
}

TEST(FileParts, PrefixKeepsRowsAndImports) {
  std::string text =
      "import torch\n"
      "x = 1\n"
      "from torch.utils.data import (\n"
      "    DataLoader,\n"
      ")\n"
      "def f():\n"
      "    return 2\n";
  std::size_t start = text.find("def f");
  std::string prefix = imports_only_prefix(text, start);
  EXPECT_EQ(prefix, "import torch\n\nfrom torch.utils.data import (\n    DataLoader,\n)\n");
  EXPECT_EQ(util::count_byte(prefix, '\n'), util::count_byte(std::string_view(text).substr(0, start), '\n'));
}

bool has_note(const FileAnalysis& a, std::string_view part1, std::string_view part2) {
  return std::any_of(a.notes.begin(), a.notes.end(), [&](const std::string& s) {
    return s.find(part1) != std::string::npos && s.find(part2) != std::string::npos;
  });
}

// A generated file above the threshold: the same findings, at the same lines, as the parts of it
// analysed alone, at most k_max_findings_per_rule of one rule, and notes that say it was split and
// how many findings were not listed.
TEST(FileParts, LargeFileFindingsKeepTheirLines) {
  const std::string block =
      "def step_{N}(model, batch):\n"
      "    scaler = torch.cuda.amp.GradScaler()\n"
      "    return model(batch)\n"
      "\n";
  std::string text = "import torch\n";
  int n = 0;
  while (text.size() <= k_parts_above_bytes + k_part_bytes) {
    std::string b = block;
    b.replace(b.find("{N}"), 3, std::to_string(n++));
    text += b;
  }
  auto src = python_source("big.py", text);
  ASSERT_TRUE(src);
  auto a = analyze(*src);
  ASSERT_EQ(a.findings.size(), k_max_findings_per_rule);  // one deprecated GradScaler per block, the first 200
  for (std::size_t i = 0; i < a.findings.size(); ++i) {
    ASSERT_TRUE(a.findings[i].location);
    EXPECT_EQ(a.findings[i].location->line, 3 + 4 * static_cast<int>(i)) << i;
    EXPECT_EQ(a.findings[i].id, "code.deprecated_amp");
  }
  EXPECT_TRUE(has_note(a, "analysed in", "parts"));
  EXPECT_TRUE(has_note(a, std::to_string(static_cast<std::size_t>(n) - k_max_findings_per_rule) + " more code.deprecated_amp",
                       "not listed"));
}

// Module-level code without definitions is cut too, and a statement above the bound is skipped
// with a note that names its lines; the code after it keeps its lines.
TEST(FileParts, StatementsWithoutDefinitionsAndAGiantLiteral) {
  std::string text = "import torch\n";
  int rows = 1;
  while (text.size() <= k_parts_above_bytes) {
    text += "x = torch.zeros(3)\n";
    ++rows;
  }
  const int literal_first = rows + 1;
  text += "TABLE = [\n";
  ++rows;
  while (text.size() <= k_parts_above_bytes + k_max_statement_bytes + 1024) {
    text += "    0.125, 0.25, 0.5,\n";
    ++rows;
  }
  text += "]\n";
  ++rows;
  const int literal_last = rows;
  text += "scaler = torch.cuda.amp.GradScaler()\n";
  ++rows;
  auto src = python_source("gen.py", text);
  ASSERT_TRUE(src);
  auto a = analyze(*src);
  ASSERT_FALSE(a.findings.empty());
  ASSERT_TRUE(a.findings.back().location);
  EXPECT_EQ(a.findings.back().id, "code.deprecated_amp");
  EXPECT_EQ(a.findings.back().location->line, rows);
  EXPECT_TRUE(has_note(a, fmt::format("lines {} to {} hold one top-level statement", literal_first, literal_last),
                       "not scanned"));
  EXPECT_TRUE(has_note(a, "analysed in", "parts"));
}

}  // namespace
}  // namespace gpudoctor::scan
