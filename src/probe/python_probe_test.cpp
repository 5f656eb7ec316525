#include <probe/python_probe.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::probe {
namespace {

using namespace std::string_view_literals;

TEST(InterpreterQuery, PutsTheUserSiteBeforeTheFirstSiteDirectory) {
  auto fs = sys::make_rooted_file_system("/");
  // "/" exists everywhere: it stands in for a user site directory that exists.
  auto out = "3.11\0/usr\0/usr\0/\0/usr/lib/python311.zip\0/usr/lib/python3.11\0/usr/lib/python3/dist-packages"sv;
  auto info = parse_interpreter_query(out, *fs);
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->version, "3.11");
  EXPECT_EQ(info->sys_path,
            (std::vector<std::string>{"/usr/lib/python311.zip", "/usr/lib/python3.11", "/", "/usr/lib/python3/dist-packages"}));
}

TEST(InterpreterQuery, AVenvWithoutSystemSitePackagesHasNoUserSite) {
  auto fs = sys::make_rooted_file_system("/");
  auto out = "3.12\0/v\0/usr\0/\0/usr/lib/python3.12\0/v/lib/python3.12/site-packages"sv;
  auto info = parse_interpreter_query(out, *fs);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->sys_path, (std::vector<std::string>{"/usr/lib/python3.12", "/v/lib/python3.12/site-packages"}));
}

TEST(InterpreterQuery, RejectsOutputThatIsNotTheQuery) {
  auto fs = sys::make_rooted_file_system("/");
  EXPECT_FALSE(parse_interpreter_query("Python 2.7.18", *fs));
}

TEST(DeepOutput, ReadsTheReportLineAmongOtherOutput) {
  auto reports = parse_deep_output(
      "some banner\n{\"framework\": \"torch\", \"imported\": true, \"version\": \"2.5.1+cpu\", \"cuda_version\": \"\", "
      "\"gpu_available\": false, \"device_count\": 0, \"warnings\": [\"CUDA initialization: no driver\"]}\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].framework, facts::Framework::torch);
  EXPECT_TRUE(reports[0].imported);
  ASSERT_TRUE(reports[0].gpu_available.known());
  EXPECT_FALSE(*reports[0].gpu_available);
  EXPECT_EQ(reports[0].device_count.value_or(-1), 0);
  EXPECT_EQ(reports[0].warnings, std::vector<std::string>{"CUDA initialization: no driver"});
}

TEST(DeepOutput, AFailedImportKeepsItsError) {
  auto reports = parse_deep_output(
      "{\"framework\": \"tensorflow\", \"imported\": false, \"error\": \"ImportError: libcudnn.so.8\", \"warnings\": []}\n");
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_FALSE(reports[0].imported);
  EXPECT_EQ(reports[0].error, "ImportError: libcudnn.so.8");
  EXPECT_FALSE(reports[0].gpu_available.known());
}

}  // namespace
}  // namespace gpudoctor::probe
