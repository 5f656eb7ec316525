#include <probe/python_probe.hpp>

#include <sys/archive.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

// A tree with pyenv's layout: a shim that names pyenv, one installed version, and an interpreter
// outside $PYENV_ROOT/versions that a hostile checkout would like gpudoctor to run.
class PyenvTree : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = sys::TempDir::create("gpudoctor-pyenv-");
    ASSERT_TRUE(dir);
    m_dir.emplace(std::move(*dir));
    write("/home/u/.pyenv/shims/python3", "#!/usr/bin/env bash\nset -e\nexec \"/home/u/.pyenv/libexec/pyenv\" exec \"$0\"\n", 0755);
    write("/home/u/.pyenv/versions/3.11.4/bin/python3", "#!/bin/sh\n", 0755);
    write("/evil/bin/python3", "#!/bin/sh\n", 0755);
    m_fs = sys::make_rooted_file_system(m_dir->path());
  }
  void write(const std::string& path, const std::string& content, unsigned mode = 0644) {
    auto host = m_dir->path() + path;
    std::filesystem::create_directories(std::filesystem::path(host).parent_path());
    std::ofstream(host) << content;
    std::filesystem::permissions(host, static_cast<std::filesystem::perms>(mode));
  }
  std::vector<std::string> discovered(const std::map<std::string, std::string>& extra_env = {}) {
    std::map<std::string, std::string> env{{"PATH", "/home/u/.pyenv/shims"}};
    for (const auto& [k, v] : extra_env) env[k] = v;
    std::vector<std::string> out;
    for (const auto& c : discover_interpreters(*m_fs, env, {}, "/proj/sub")) out.push_back(c.path);
    return out;
  }
  std::optional<sys::TempDir> m_dir;
  std::unique_ptr<sys::FileSystem> m_fs;
};

TEST_F(PyenvTree, AVersionFileNamesAnInstalledVersion) {
  write("/proj/.python-version", "# pinned\n3.11.4\n");
  EXPECT_EQ(discovered(), std::vector<std::string>{"/home/u/.pyenv/versions/3.11.4/bin/python3"});
}

TEST_F(PyenvTree, AVersionNameThatClimbsOutOfVersionsIsNeverRun) {
  // CVE-2022-35861's shape: the checkout's .python-version points at a directory it chose.
  for (const char* hostile : {"../../../../evil", "../../../evil", "..", "3.11.4/../../../../evil", "/evil"}) {
    write("/proj/.python-version", std::string(hostile) + "\n");
    EXPECT_EQ(discovered(), std::vector<std::string>{}) << hostile;
    EXPECT_EQ(discovered({{"PYENV_VERSION", hostile}}), std::vector<std::string>{}) << hostile;
  }
}

TEST_F(PyenvTree, AnUnsafeNameIsSkippedForTheNextListedVersion) {
  write("/proj/.python-version", "../../../../evil\n3.11.4\n");
  EXPECT_EQ(discovered(), std::vector<std::string>{"/home/u/.pyenv/versions/3.11.4/bin/python3"});
}

TEST_F(PyenvTree, SystemMeansTheNextInterpreterOnPath) {
  write("/proj/.python-version", "system\n");
  write("/usr/bin/python3", "#!/bin/sh\n", 0755);
  std::map<std::string, std::string> env{{"PATH", "/home/u/.pyenv/shims:/usr/bin"}};
  std::vector<std::string> out;
  for (const auto& c : discover_interpreters(*m_fs, env, {}, "/proj")) out.push_back(c.path);
  EXPECT_EQ(out, std::vector<std::string>{"/usr/bin/python3"});
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
