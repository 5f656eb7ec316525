// A very large file is analysed in parts (file_parts.hpp): the parts start only at top-level
// definitions, the kept imports keep rows and names, and the findings are those of the whole file.
#include <algorithm>

#include <gtest/gtest.h>

#include <scan/analyzer.hpp>
#include <scan/file_parts.hpp>
#include <scan/source.hpp>
#include <util/text.hpp>

namespace gpudoctor::scan {
namespace {

TEST(FileParts, SmallFileIsOnePart) {
  EXPECT_EQ(part_starts("import torch\ndef f():\n    pass\n", 1), (std::vector<std::size_t>{0, 13}));
  EXPECT_EQ(part_starts("x = 1\n", 1 << 20), std::vector<std::size_t>{0});
}

TEST(FileParts, StartsOnlyAtTopLevelDefinitions) {
  std::string text =
      "a = 1\n"
      "doc = \"\"\"\n"
      "def not_code():\n"          // inside a triple-quoted string
      "\"\"\"\n"
      "call(1,\n"
      "def_kw=2)\n"                // not a definition, and inside brackets
      "s = 'it''s'  # def x\n"
      "t = \"a \\\"\"\n"          // an escaped quote does not end the string
      "x = 1 + \\\n"
      "    2\n"
      "    def nested(): pass\n"  // indented: not top level
      "@decorator\n"
      "def real():\n"
      "    pass\n"
      "class C:\n"
      "    pass\n";
  auto starts = part_starts(text, 1);
  std::vector<std::string_view> heads;
  for (auto s : starts) heads.push_back(std::string_view(text).substr(s, 10));
  EXPECT_EQ(heads, (std::vector<std::string_view>{"a = 1\ndoc ", "@decorator", "class C:\n "}));
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

// A generated file above the threshold: the same findings, at the same lines, as the parts of it
// analysed alone, and a note that says it was split.
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
  ASSERT_EQ(a.findings.size(), static_cast<std::size_t>(n));  // one deprecated GradScaler per block
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(a.findings[static_cast<std::size_t>(i)].location);
    EXPECT_EQ(a.findings[static_cast<std::size_t>(i)].location->line, 3 + 4 * i) << i;
    EXPECT_EQ(a.findings[static_cast<std::size_t>(i)].id, "code.deprecated_amp");
  }
  EXPECT_TRUE(std::any_of(a.notes.begin(), a.notes.end(), [](const std::string& s) {
    return s.find("analysed in") != std::string::npos && s.find("parts") != std::string::npos;
  }));
}

}  // namespace
}  // namespace gpudoctor::scan
