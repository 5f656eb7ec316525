#include <scan/config.hpp>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace gpudoctor::scan {
namespace {

// Found by the scan fuzz target: toml++ 3.3 asserts (debug) or assumes (release) that a table
// header starts with a key character. Such a header is a clear error, before toml++ sees it.
TEST(Config, TableHeaderWithoutAKeyIsAnErrorNotAnAssertion) {
  for (const char* text : {"[&", "[[ &x]]\n", "[tool]\na = 1\n  [ %]\n", "[[\n", "[\n", "a = 1\n[[ \t"}) {
    auto c = parse_config(text, "pyproject.toml");
    ASSERT_FALSE(c) << text;
    EXPECT_NE(c.error().message.find("expected bare key starting character"), std::string::npos) << c.error().message;
  }
  // Lines of a multi-line array that start with '[' are no headers (not even `[` alone, or an
  // inline table), nor is a '[' inside a string.
  auto arrays = parse_config("m = [\n  [1, 2],\n  [\n    3,\n  ],\n  [{a = 1}],\n]\ns = \"\"\"\n[\n\"\"\"\n"
                             "[tool.gpudoctor]\nexclude = [\n  \"a/*\",\n]\n",
                             "pyproject.toml");
  ASSERT_TRUE(arrays) << arrays.error().message;
  EXPECT_EQ(arrays->exclude, std::vector<std::string>{"a/*"});
  // Found by the scan fuzz target: a value wanted where toml++ assumes one starts, and an inline
  // table's key (toml++ asserts on each).
  for (const char* text : {"a = [}\n", "a = }\n", "a = # c\n", "a =\n", "t = { & = 1 }\n", "t = { a = 1, }\n",
                           "t = {a = [1}]\n", "a = [1, {b = 2]}\n", "a = ,\n",
                           "[tool.gpudoctor]\nse.ect = [\"code.inputs_not_moved\"]\nFgnore = [}\n"}) {
    auto c = parse_config(text, "pyproject.toml");
    ASSERT_FALSE(c) << text;
    EXPECT_NE(c.error().message.find("Error while parsing"), std::string::npos) << c.error().message;
  }
  auto shapes = parse_config("a = [1, 2,]\nb = [\n  # c\n  1,\n]\nc = {}\nd = { x = 1, \"y\" = [2] }\ne = []\n"
                             "f = [{x = 1}, {y = \"}\"}]\ng = 1979-05-27T07:32:00Z\nh = -inf\n",
                             "pyproject.toml");
  EXPECT_TRUE(shapes) << shapes.error().message;
  // Valid headers of every shape still parse.
  auto ok = parse_config("[tool.gpudoctor]\n[ \"quoted\" ]\n[[array]]\n['literal']\n", "pyproject.toml");
  EXPECT_TRUE(ok) << ok.error().message;
}

// Found by the scan fuzz target: toml++ 3.3 reaches an "unreachable" on some non-ASCII characters
// it tests for whitespace (U+026C, bytes C9 AC): outside strings, and after a syntax error inside
// them too. Outside strings TOML allows none: they are refused with their line. Everywhere else
// toml++ gets them escaped, so non-ASCII text in every kind of string and in comments still parses,
// to the same value.
TEST(Config, NonAsciiOutsideStringsIsAnErrorNotUndefinedBehaviour) {
  for (const char* text : {"\xc9\xac", "[tool]\na = 1\nb\xc9\xac = 2\n", "[tool]\na = \"x\"\xd0\x96\n",
                           "x = '''\n\xc3\xa9'''\n\xef\xbb\x80 = 1\n"}) {
    auto c = parse_config(text, "pyproject.toml");
    ASSERT_FALSE(c) << text;
    EXPECT_NE(c.error().message.find("non-ASCII character outside a string"), std::string::npos) << c.error().message;
  }
  auto line = parse_config("[tool]\na = 1\nb\xc9\xac = 2\n", "pyproject.toml");
  ASSERT_FALSE(line);
  EXPECT_NE(line.error().message.find("pyproject.toml:3:"), std::string::npos) << line.error().message;
  auto ok = parse_config("# caf\xc3\xa9\n[other]\n\"k\xc3\xa9\" = \"v\xc3\xa9 \\\" still\"\n"
                         "m = \"\"\"\n\xc3\xa9\n\"\"\"\nl = 'x\xc3\xa9'\nml = '''\n\xc9\xac\n'''\n"
                         "[tool.gpudoctor]\nexclude = [\"d\xc3\xa9j\xc3\xa0\", 'caf\xc3\xa9\\\"*', \"\xf0\x9f\x98\x80\"] # \xc9\xac\n",
                         "pyproject.toml");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->exclude, (std::vector<std::string>{"d\xc3\xa9j\xc3\xa0", "caf\xc3\xa9\\\"*", "\xf0\x9f\x98\x80"}));
  // The fuzz target's reproducer: a bad value, then a string holding U+048B.
  auto fuzz = parse_config("[tool.gpudoctor]\nselect =0[\"code\xd2\x8bstep\"]\n", "pyproject.toml");
  EXPECT_FALSE(fuzz);
  for (const char* bad : {"a = \"\xff\"\n", "# \xc3\n", "a = '\xe2\x82'\n"}) {
    auto c = parse_config(bad, "pyproject.toml");
    ASSERT_FALSE(c) << bad;
    EXPECT_NE(c.error().message.find("invalid UTF-8"), std::string::npos) << c.error().message;
  }
}

TEST(Config, ReadsToolGpudoctorTable) {
  auto c = parse_config(R"(
[project]
name = "demo"

[tool.gpudoctor]
ignore = ["code.no_mixed_precision"]
exclude = ["scratch/*", "build"]
max_file_mb = 4

[tool.gpudoctor.severity]
"code.sync_in_loop" = "error"
)",
                        "pyproject.toml");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->enabled("code.no_mixed_precision"));
  EXPECT_TRUE(c->enabled("code.dataparallel"));
  EXPECT_EQ(c->severity.at("code.sync_in_loop"), facts::Severity::error);
  EXPECT_EQ(c->max_file_bytes, 4ull << 20);
  EXPECT_TRUE(c->excluded("scratch/try.py"));
  EXPECT_TRUE(c->excluded("build/lib/x.py"));
  EXPECT_FALSE(c->excluded("src/train.py"));
}

TEST(Config, SelectLimitsTheRules) {
  auto c = parse_config("[tool.gpudoctor]\nselect = [\"code.inputs_not_moved\"]\n", "p");
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->enabled("code.inputs_not_moved"));
  EXPECT_FALSE(c->enabled("code.dataparallel"));
}

TEST(Config, TyposAreErrorsNotSilence) {
  EXPECT_FALSE(parse_config("[tool.gpudoctor]\nignore = [\"code.sync_in_lop\"]\n", "p"));
  EXPECT_FALSE(parse_config("[tool.gpudoctor]\nignored = []\n", "p"));
  EXPECT_FALSE(parse_config("[tool.gpudoctor.severity]\n\"code.sync_in_loop\" = \"fatal\"\n", "p"));
  EXPECT_FALSE(parse_config("[tool.gpudoctor\n", "p"));
  EXPECT_FALSE(parse_config("[tool.gpudoctor]\ninclude_tests = \"yes\"\n", "p"));
  auto none = parse_config("[tool.black]\nline-length = 100\n", "p");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->enabled("code.dataparallel"));
  // No [tool.gpudoctor] table: the defaults, and no configuration to name in the report.
  EXPECT_EQ(none->origin, "");
  EXPECT_FALSE(none->include_tests);
  auto tests = parse_config("[tool.gpudoctor]\ninclude_tests = true\n", "p");
  ASSERT_TRUE(tests);
  EXPECT_TRUE(tests->include_tests);
  EXPECT_EQ(tests->origin, "p");
}

TEST(Config, NearestPyprojectUpwards) {
  namespace fs = std::filesystem;
  fs::path root = fs::path(GPUDOCTOR_BINARY_DIR) / "scan_test_tmp" / "cfg";
  fs::remove_all(root);
  fs::create_directories(root / "pkg" / "sub");
  std::ofstream(root / "pyproject.toml") << "[tool.gpudoctor]\n";
  auto found = find_pyproject((root / "pkg" / "sub").string());
  ASSERT_TRUE(found);
  EXPECT_EQ(fs::path(*found), fs::absolute(root / "pyproject.toml"));
  fs::remove_all(root);
}

}  // namespace
}  // namespace gpudoctor::scan
