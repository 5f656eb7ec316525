// `gpudoctor explain` as a user runs it: the built binary (GPUDOCTOR_BIN, set by ctest) on files
// and on standard input, checking exit statuses and the JSON findings order.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpudoctor::cli {
namespace {

struct Result {
  int status = -1;
  std::string out;
};

std::string binary() {
  const char* bin = std::getenv("GPUDOCTOR_BIN");
  return bin ? bin : "";
}

Result run(const std::string& args) {
  Result r;
  std::FILE* p = ::popen((binary() + " " + args + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string write_file(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

class ExplainCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    if (binary().empty()) GTEST_SKIP() << "GPUDOCTOR_BIN is not set (ctest sets it to the built gpudoctor)";
  }
};

TEST_F(ExplainCommand, JsonListsRootCauseFirstAndExitsOneOnAnError) {
  std::string path = write_file("explain_oom.log",
                                "epoch 1 loss=0.3\n"
                                "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\n"
                                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                                "total capacity of 23.64 GiB of which 1.12 GiB is free.\n");
  Result r = run("explain --json " + path);
  EXPECT_EQ(r.status, 1);
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("findings").size(), 2u) << r.out;
  EXPECT_EQ(j["findings"][0]["id"], "log.cuda_oom");
  EXPECT_EQ(j["findings"][1]["id"], "log.cudnn_status");
  EXPECT_EQ(j["findings"][1]["explained_by"][0], "log.cuda_oom");
}

TEST_F(ExplainCommand, ReadsStandardInputAndExitsZeroWithoutErrors) {
  std::string path = write_file("explain_warn.log", "No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 "
                                                    "and rerun for more info.)\n");
  Result r = run("explain - < " + path);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("log.jax_cpu_fallback"), std::string::npos) << r.out;
  Result none = run("explain --json < " + write_file("explain_clean.log", "all good\n"));
  EXPECT_EQ(none.status, 0);
  EXPECT_TRUE(nlohmann::json::parse(none.out).at("findings").empty());
}

TEST_F(ExplainCommand, UnreadableFileIsAUsageError) {
  EXPECT_EQ(run("explain " + ::testing::TempDir() + "/no-such-file.log").status, 2);
  EXPECT_EQ(run("explain " + ::testing::TempDir()).status, 2) << "a directory is not a log";
}

}  // namespace
}  // namespace gpudoctor::cli
