#include <util/json_number.hpp>

#include <facts/facts.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::util {
namespace {

using nlohmann::json;

TEST(JsonNumber, RefusesValuesTheFieldCannotHold) {
  // Each of these was a plain cast in nlohmann (undefined behaviour for the floats).
  EXPECT_THROW(json_number<std::uint64_t>(json::parse("3.22123e19")), json::out_of_range);
  EXPECT_THROW(json_number<std::uint64_t>(json::parse("-1")), json::out_of_range);
  EXPECT_THROW(json_number<int>(json::parse("1e30")), json::out_of_range);
  EXPECT_THROW(json_number<int>(json::parse("2147483648")), json::out_of_range);
  EXPECT_THROW(json_number<std::uint32_t>(json::parse("-0.5e1")), json::out_of_range);
  EXPECT_THROW(json_number<int>(json::parse("2.5")), json::out_of_range);
  EXPECT_THROW(json_number<float>(json::parse("1e300")), json::out_of_range);
  EXPECT_THROW(json_number<int>(json::parse("\"7\"")), json::type_error);
  EXPECT_THROW(json_number<std::int64_t>(json::parse("9223372036854775808")), json::out_of_range);
  EXPECT_THROW(json_number<std::int64_t>(json::parse("9.3e18")), json::out_of_range);
}

TEST(JsonNumber, KeepsValuesThatFit) {
  EXPECT_EQ(json_number<std::uint64_t>(json::parse("18446744073709551615")), 18446744073709551615u);
  EXPECT_EQ(json_number<int>(json::parse("-2147483648")), -2147483647 - 1);
  EXPECT_EQ(json_number<int>(json::parse("12.0")), 12);
  EXPECT_EQ(json_number<std::uint16_t>(json::parse("65535")), 65535);
  EXPECT_DOUBLE_EQ(json_number<double>(json::parse("1e300")), 1e300);
  EXPECT_EQ(json_number_or(json::parse(R"({"a": 3})"), "b", 9), 9);
  EXPECT_EQ(json_number_or(json::parse(R"({"a": 3})"), "a", 9), 3);
}

TEST(JsonNumber, ContainersAndKnownAreChecked) {
  EXPECT_THROW((json_get<std::vector<std::uint32_t>>(json::parse("[1, -2]"))), json::out_of_range);
  EXPECT_THROW((json_get<std::map<std::string, std::uint32_t>>(json::parse(R"({"render": 1e40})"))), json::out_of_range);
  EXPECT_EQ((json_get<std::vector<std::uint32_t>>(json::parse("[1, 2]"))), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_THROW(json::parse("3.22123e19").get<facts::Known<std::uint64_t>>(), json::out_of_range);
  EXPECT_FALSE(json::parse(R"({"unknown": "not in the text"})").get<facts::Known<std::uint64_t>>().known());
}

TEST(JsonNumber, FactsFileWithAnOutOfRangeNumberIsRefused) {
  // What `--facts FILE` reads: a float where a uid belongs and a negative device minor.
  json facts = json::parse(R"({"schema_version": 0})");
  facts["schema_version"] = facts::k_facts_schema_version;
  facts["environment"]["identity"]["uid"] = 1e30;
  EXPECT_THROW(facts.get<facts::Facts>(), json::out_of_range);
  facts["environment"]["identity"]["uid"] = 1000;
  facts["environment"]["dev"]["nodes"] = json::parse(R"([{"path": "/dev/nvidia0", "mode": -1}])");
  EXPECT_THROW(facts.get<facts::Facts>(), json::out_of_range);
  facts["environment"]["dev"]["nodes"][0]["mode"] = 8630;
  auto f = facts.get<facts::Facts>();
  EXPECT_EQ(*f.environment.identity.uid, 1000u);
  EXPECT_EQ(f.environment.dev.nodes->at(0).mode, 8630u);
}

}  // namespace
}  // namespace gpudoctor::util
