// The round trip: `capture` of the live machine replayed with `check --root` gives the same
// findings and the same environment facts as `check` on the live machine (hwloc's test of
// gather-then-replay). Runs the real binary on this real machine.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/archive.hpp>
#include <sys/subprocess.hpp>

namespace gpudoctor {
namespace {

std::string gpudoctor_bin() {
  const char* bin = std::getenv("GPUDOCTOR_BIN");
  return bin ? bin : std::string(GPUDOCTOR_BINARY_DIR) + "/gpudoctor";
}

nlohmann::json run_json(std::vector<std::string> args) {
  sys::ProcessOptions o;
  o.argv = std::move(args);
  o.timeout = std::chrono::seconds(60);
  auto r = sys::run_process(o);
  EXPECT_TRUE(r) << r.error().message;
  if (!r) return nullptr;
  EXPECT_TRUE(r->exit_code == 0 || r->exit_code == 1) << r->err;
  return nlohmann::json::parse(r->out);
}

nlohmann::json comparable_findings(const nlohmann::json& report) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : report["findings"]) out.push_back({f["id"], f["severity"], f["message"], f["evidence"]});
  return out;
}

TEST(CaptureRoundTrip, ReplayingALiveCaptureGivesTheSameFindingsAndFacts) {
  auto dir = sys::TempDir::create("gpudoctor-capture-test-");
  ASSERT_TRUE(dir);
  std::string archive = dir->path() + "/machine.tar.gz";
  sys::ProcessOptions cap;
  cap.argv = {gpudoctor_bin(), "capture", "-o", archive};
  cap.timeout = std::chrono::seconds(60);
  auto c = sys::run_process(cap);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->exit_code, 0) << c->err;
  ASSERT_TRUE(std::filesystem::exists(archive));

  auto live = run_json({gpudoctor_bin(), "check", "--json"});
  auto replay = run_json({gpudoctor_bin(), "check", "--json", "--root", archive});
  ASSERT_FALSE(live.is_null());
  ASSERT_FALSE(replay.is_null());
  EXPECT_EQ(comparable_findings(live), comparable_findings(replay));
  EXPECT_EQ(live["facts"]["environment"], replay["facts"]["environment"]);
  EXPECT_EQ(live["facts"]["meta"]["hostname"], replay["facts"]["meta"]["hostname"]);
  EXPECT_EQ(replay["root"], archive);
}

TEST(CaptureRoundTrip, CaptureKeepsOnlyAllowlistedEnvironmentVariables) {
  auto dir = sys::TempDir::create("gpudoctor-capture-test-");
  ASSERT_TRUE(dir);
  std::string archive = dir->path() + "/machine.tar.gz";
  sys::ProcessOptions cap;
  cap.argv = {gpudoctor_bin(), "capture", "-o", archive};
  cap.env = std::vector<std::string>{"PATH=/usr/bin:/bin", "CUDA_VISIBLE_DEVICES=", "AWS_SECRET_ACCESS_KEY=hunter2",
                                     "GITHUB_TOKEN=ghp_x"};
  auto c = sys::run_process(cap);
  ASSERT_TRUE(c && c->exit_code == 0) << (c ? c->err : c.error().message);
  auto unpacked = dir->path() + "/tree";
  std::filesystem::create_directory(unpacked);
  ASSERT_TRUE(sys::extract_archive(archive, unpacked));
  std::string environ;
  for (const auto& e : std::filesystem::recursive_directory_iterator(unpacked + "/proc")) {
    if (e.path().filename() == "environ" && e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      environ.assign(std::istreambuf_iterator<char>(in), {});
    }
  }
  ASSERT_FALSE(environ.empty());
  EXPECT_NE(environ.find(std::string("CUDA_VISIBLE_DEVICES=\0", 22)), std::string::npos);
  EXPECT_EQ(environ.find("hunter2"), std::string::npos);
  EXPECT_EQ(environ.find("GITHUB_TOKEN"), std::string::npos);
}

TEST(CheckCli, UsageErrorsExitTwo) {
  for (std::vector<std::string> args : {std::vector<std::string>{"check", "--root", "/nonexistent/gpudoctor-root"},
                                        std::vector<std::string>{"check", "--no-such-flag"},
                                        std::vector<std::string>{"check", "--facts", "/nonexistent/facts.json"},
                                        std::vector<std::string>{}}) {
    sys::ProcessOptions o;
    o.argv = {gpudoctor_bin()};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    auto r = sys::run_process(o);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->exit_code, 2) << args.size();
  }
}

TEST(CheckCli, GarbageArchiveIsAClearUsageError) {
  auto dir = sys::TempDir::create("gpudoctor-capture-test-");
  ASSERT_TRUE(dir);
  std::string bogus = dir->path() + "/bogus.tar.gz";
  std::ofstream(bogus) << "this is not an archive";
  sys::ProcessOptions o;
  o.argv = {gpudoctor_bin(), "check", "--root", bogus};
  auto r = sys::run_process(o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 2);
  EXPECT_NE(r->err.find("bogus.tar.gz"), std::string::npos) << r->err;
}

TEST(CheckCli, FactsDumpRoundTrips) {
  auto dir = sys::TempDir::create("gpudoctor-facts-test-");
  ASSERT_TRUE(dir);
  sys::ProcessOptions o;
  o.argv = {gpudoctor_bin(), "facts", "--json"};
  auto r = sys::run_process(o);
  ASSERT_TRUE(r && r->exit_code == 0);
  std::string file = dir->path() + "/facts.json";
  std::ofstream(file) << r->out;
  auto live = run_json({gpudoctor_bin(), "check", "--json"});
  auto from_dump = run_json({gpudoctor_bin(), "check", "--json", "--facts", file});
  EXPECT_EQ(comparable_findings(live), comparable_findings(from_dump));
}

}  // namespace
}  // namespace gpudoctor
