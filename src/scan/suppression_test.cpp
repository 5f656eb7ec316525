#include <scan/suppression.hpp>

#include <gtest/gtest.h>

#include <scan/analyzer.hpp>
#include <scan/source.hpp>

namespace gpudoctor::scan {
namespace {

TEST(Suppression, MarkerGrammar) {
  EXPECT_TRUE(is_suppressed("x.item()  # gpudoctor: ignore[code.sync_in_loop]", "code.sync_in_loop"));
  EXPECT_TRUE(is_suppressed("x.item()  # gpudoctor: ignore[dataparallel, sync_in_loop]", "code.sync_in_loop"));
  EXPECT_TRUE(is_suppressed("x.item()  #gpudoctor:ignore", "code.sync_in_loop"));
  EXPECT_FALSE(is_suppressed("x.item()  # gpudoctor: ignore[code.dataparallel]", "code.sync_in_loop"));
  EXPECT_FALSE(is_suppressed("x.item()  # see gpudoctor: ignore", "code.sync_in_loop"));
  EXPECT_FALSE(is_suppressed("x.item()  # gpudoctor: ignore[code.sync_in_loop", "code.sync_in_loop"));
}

TEST(Suppression, AppliesToTheFindingsLineOnly) {
  std::string text =
      "import torch.nn as nn\n"
      "a = nn.DataParallel(nn.Linear(1, 1))  # gpudoctor: ignore[code.dataparallel]\n"
      "b = nn.DataParallel(nn.Linear(1, 1))\n";
  auto src = python_source("s.py", text);
  ASSERT_TRUE(src);
  auto result = analyze(*src);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].location->line, 3);
}

}  // namespace
}  // namespace gpudoctor::scan
