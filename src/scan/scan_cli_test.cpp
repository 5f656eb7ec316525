// The `gpudoctor scan` command end to end: output formats, exit statuses, --explain.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpudoctor::scan {
namespace {

struct Run {
  int status = -1;
  std::string out;
};

Run run(const std::string& args) {
  const char* bin = std::getenv("GPUDOCTOR_BIN");
  std::string exe = bin != nullptr ? bin : std::string(GPUDOCTOR_BINARY_DIR) + "/gpudoctor";
  std::string cmd = "'" + exe + "' " + args + " 2>/dev/null";
  Run r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string example(const std::string& rel) { return "'" + std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/scan/" + rel + "'"; }

TEST(ScanCli, TextJsonAndSarifAgreeAndErrorsExitOne) {
  std::string file = example("inputs_not_moved/bad_cifar.py");
  auto text = run("scan --color never " + file);
  EXPECT_EQ(text.status, 1);
  EXPECT_NE(text.out.find("bad_cifar.py:20:29: code.inputs_not_moved"), std::string::npos) << text.out;

  auto json = run("scan --json " + file);
  EXPECT_EQ(json.status, 1);
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["command"], "scan");
  ASSERT_EQ(j["findings"].size(), 2u);
  EXPECT_EQ(j["findings"][0]["location"]["line"], 20);

  auto sarif = run("scan --sarif " + file);
  EXPECT_EQ(sarif.status, 1);
  auto s = nlohmann::json::parse(sarif.out);
  EXPECT_EQ(s["version"], "2.1.0");
  EXPECT_EQ(s["runs"][0]["results"].size(), 2u);
}

TEST(ScanCli, WarningsOnlyExitZeroAndUsageErrorsExitTwo) {
  EXPECT_EQ(run("scan " + example("dataparallel/bad_dp.py")).status, 0);
  EXPECT_EQ(run("scan " + example("dataparallel/good_ddp.py")).status, 0);
  EXPECT_EQ(run("scan /nonexistent/path.py").status, 2);
  EXPECT_EQ(run("scan").status, 2);
  EXPECT_EQ(run("scan --explain code.no_such_rule").status, 2);
}

TEST(ScanCli, NotebookLocationsNameTheCell) {
  auto r = run("scan --color never " + example("visible_devices_after_init/bad_notebook.ipynb"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("bad_notebook.ipynb:cell [3]:line 1:1: code.visible_devices_after_init"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bad_notebook.ipynb:cell [4]:line 2:1: code.visible_devices_after_init"), std::string::npos) << r.out;
}

TEST(ScanCli, ExplainPrintsTheRuleDoc) {
  auto r = run("scan --explain code.inputs_not_moved");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("# code.inputs_not_moved"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("## Bad"), std::string::npos);
  EXPECT_NE(r.out.find("## Good"), std::string::npos);
  EXPECT_EQ(run("scan --explain sync_in_loop").status, 0) << "the code. prefix may be left out";
}

}  // namespace
}  // namespace gpudoctor::scan
