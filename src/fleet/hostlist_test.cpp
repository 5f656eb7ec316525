#include <fleet/hostlist.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace gpudoctor::fleet {
namespace {

TEST(Hostlist, CompressesZeroPaddedRangesAsSlurmPrintsThem) {
  EXPECT_EQ(compress_hostlist({"gpu003", "gpu001", "gpu002", "gpu004", "gpu007"}), "gpu[001-004,007]");
  EXPECT_EQ(compress_hostlist({"gpu008", "gpu009", "gpu010"}), "gpu[008-010]");
}

TEST(Hostlist, UnpaddedNumbersOfDifferentWidthJoin) {
  EXPECT_EQ(compress_hostlist({"node9", "node10", "node11"}), "node[9-11]");
  // A padded and an unpadded name of different widths never share a range.
  EXPECT_EQ(compress_hostlist({"n01", "n2"}), "n[01,2]");
}

TEST(Hostlist, NamesWithoutNumbersAndDuplicates) {
  EXPECT_EQ(compress_hostlist({"login", "gpu1", "gpu1", "cpu2", "gpu2"}), "cpu2,gpu[1-2],login");
  EXPECT_EQ(compress_hostlist({"solo"}), "solo");
  EXPECT_EQ(compress_hostlist({}), "");
  EXPECT_EQ(compress_hostlist({"gpu5"}), "gpu5");
}

TEST(Hostlist, ExpandsRangesListsAndProducts) {
  auto v = expand_hostlist("gpu[001-003,007],login1");
  ASSERT_TRUE(v);
  EXPECT_EQ(*v, (std::vector<std::string>{"gpu001", "gpu002", "gpu003", "gpu007", "login1"}));
  auto p = expand_hostlist("r[1-2]n[1-2]");
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, (std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"}));
}

TEST(Hostlist, RoundTrips) {
  std::vector<std::string> names;
  for (int i = 1; i <= 64; ++i)
    if (i != 17) names.push_back(fmt::format("gpu{:03}", i));
  auto back = expand_hostlist(compress_hostlist(names));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, names);
}

TEST(Hostlist, BadExpressionsAreErrorsNotHugeAllocations) {
  EXPECT_FALSE(expand_hostlist("gpu[1-3"));
  EXPECT_FALSE(expand_hostlist("gpu1-3]"));
  EXPECT_FALSE(expand_hostlist("gpu[3-1]"));
  EXPECT_FALSE(expand_hostlist("gpu[a-b]"));
  EXPECT_FALSE(expand_hostlist("gpu[[1]]"));
  EXPECT_FALSE(expand_hostlist("gpu[]"));
  auto huge = expand_hostlist("gpu[0-99999999999]");
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message.find("more than"), std::string::npos);
  EXPECT_FALSE(expand_hostlist("a[0-999]b[0-999]c[0-999]", 1000));
}

}  // namespace
}  // namespace gpudoctor::fleet
