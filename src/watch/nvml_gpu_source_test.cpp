// NvmlGpuSource against the real `gpudoctor __sample-nvml` helper loading the NVML test double
// (tests/doubles/fake_nvml.c, scripted per test by a scenario file): readings, per-process figures,
// and every way the helper can fail (absent library, missing symbols, init that hangs or crashes, a
// sample that hangs).
#include <watch/nvml_gpu_source.hpp>
#include <watch/nvml_protocol.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

namespace gpudoctor::watch {
namespace {

using namespace std::chrono_literals;
namespace stdfs = std::filesystem;

std::string gpudoctor_bin() {
  const char* bin = std::getenv("GPUDOCTOR_BIN");
  return bin ? bin : std::string(GPUDOCTOR_BINARY_DIR) + "/gpudoctor";
}

constexpr const char* k_a100 = R"(nvml.init=0
nvml.driver_version=550.54.14
nvml.count=2
gpu0.name=NVIDIA A100-SXM4-80GB
gpu0.memory=81920 61440 20480
gpu0.utilization=97 41
gpu0.power_mw=312500
gpu0.clock_event_reasons=0x4
gpu0.processes=parent:61440,4194001:1024
gpu0.process_sm=parent:88
gpu1.name=NVIDIA A100-SXM4-80GB
gpu1.memory=81920 2048 79872
gpu1.utilization=0 0
gpu1.processes=parent:2048
)";

class NvmlSource : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = stdfs::temp_directory_path() / ("gpudoctor-nvml-source-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    stdfs::create_directories(m_dir);
    m_fs = sys::make_rooted_file_system("/");
  }
  void TearDown() override {
    ::unsetenv("GPUDOCTOR_FAKE_SCENARIO");
    std::error_code ec;
    stdfs::remove_all(m_dir, ec);
  }

  // The helper inherits our environment: the scenario is named there.
  std::unique_ptr<GpuSource> source(const std::string& scenario, std::string library = GPUDOCTOR_FAKE_NVML,
                                    std::chrono::milliseconds init_timeout = 1500ms) {
    stdfs::path file = m_dir / "nvml.scenario";
    std::ofstream(file) << scenario;
    ::setenv("GPUDOCTOR_FAKE_SCENARIO", file.c_str(), 1);
    NvmlSourceOptions o;
    o.library = std::move(library);
    o.answer_wait = 50ms;
    o.init_timeout = init_timeout;
    o.hang_timeout = 500ms;
    return make_nvml_gpu_source(*m_fs, gpudoctor_bin(), o);
  }

  // Reads until a reading with GPUs arrives or `limit` passes.
  static GpuReading first_reading(GpuSource& s, std::chrono::milliseconds limit = 10s) {
    auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      GpuReading r = s.read({});
      if (!r.gpus.empty()) return r;
      std::this_thread::sleep_for(20ms);
    }
    return {};
  }

  // Reads for `span`, returning how many readings carried GPUs.
  static int readings_during(GpuSource& s, std::chrono::milliseconds span) {
    int n = 0;
    auto end = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < end) {
      if (!s.read({}).gpus.empty()) ++n;
      std::this_thread::sleep_for(20ms);
    }
    return n;
  }

  // Reads until the helper's start-up has an outcome (a slow start, under a sanitizer on a loaded
  // machine, can take more than the sampling span), at most `bound`.
  static void settle(GpuSource& s, std::chrono::milliseconds bound = 15000ms) {
    auto end = std::chrono::steady_clock::now() + bound;
    while (std::chrono::steady_clock::now() < end && s.description().find("still initialising") != std::string::npos) {
      (void)s.read({});
      std::this_thread::sleep_for(20ms);
    }
  }

  // Reads until the description says `what` (the outcome under test), at most `bound`: under a
  // sanitizer on a loaded machine the helper's start alone can take seconds.
  static void read_until_said(GpuSource& s, std::string_view what, std::chrono::milliseconds bound = 15000ms) {
    auto end = std::chrono::steady_clock::now() + bound;
    while (std::chrono::steady_clock::now() < end && s.description().find(what) == std::string::npos) {
      EXPECT_TRUE(s.read({}).gpus.empty());
      std::this_thread::sleep_for(20ms);
    }
  }

  stdfs::path m_dir;
  std::unique_ptr<sys::FileSystem> m_fs;
};

TEST_F(NvmlSource, ReadsEveryGpuAndTheProcessesOfThisNamespace) {
  auto s = source(k_a100);
  GpuReading r = first_reading(*s);
  ASSERT_EQ(r.gpus.size(), 2u) << s->description();
  EXPECT_EQ(s->description(), "NVML 550.54.14");
  const GpuSample& g = r.gpus[0];
  EXPECT_EQ(g.index, 0);
  EXPECT_EQ(g.name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(g.busy_percent, Known<double>(97.0));
  EXPECT_EQ(g.memory_busy_percent, Known<double>(41.0));
  EXPECT_EQ(g.memory_used_bytes, Known<std::uint64_t>(61440ULL << 20));
  EXPECT_EQ(g.memory_total_bytes, Known<std::uint64_t>(81920ULL << 20));
  EXPECT_EQ(g.power_watts, Known<double>(312.5));
  EXPECT_EQ(g.throttle_reasons, Known<std::uint64_t>(0x4));
  // The double omits temperature-like calls it is not told about: unknown, with NVML's reason.
  EXPECT_FALSE(r.gpus[1].power_watts.known());
  EXPECT_NE(r.gpus[1].power_watts.why().find("Not Supported"), std::string::npos) << r.gpus[1].power_watts.why();
  // "parent" in the scenario is the helper's parent: this test process. Its memory is summed over
  // both GPUs; its SM share is the highest on any GPU.
  ASSERT_TRUE(r.processes_listed);
  ASSERT_TRUE(r.process_memory_bytes.count(::getpid()));
  EXPECT_EQ(r.process_memory_bytes.at(::getpid()), Known<std::uint64_t>((61440ULL + 2048ULL) << 20));
  EXPECT_EQ(r.process_sm_percent.at(::getpid()), 88.0);
  EXPECT_EQ(r.process_memory_bytes.at(4194001), Known<std::uint64_t>(1024ULL << 20));
  // Readings keep coming, one per read once the previous one was answered.
  EXPECT_GE(readings_during(*s, 500ms), 5);
  EXPECT_GT(s->helper_cpu_seconds(), -1.0);
}

TEST_F(NvmlSource, PerProcessSmShareUnsupportedIsUnknownNotZero) {
  auto s = source("nvml.init=0\nnvml.count=1\ngpu0.utilization=50 5\ngpu0.processes=parent:1024\n");
  GpuReading r = first_reading(*s);
  ASSERT_EQ(r.gpus.size(), 1u) << s->description();
  EXPECT_TRUE(r.process_sm_percent.empty());
  EXPECT_NE(r.process_sm_unknown.find("nvmlDeviceGetProcessUtilization: Not Supported"), std::string::npos)
      << r.process_sm_unknown;
  EXPECT_EQ(r.process_memory_bytes.at(::getpid()), Known<std::uint64_t>(1024ULL << 20));
}

TEST_F(NvmlSource, ProcessListRefusedMakesProcessFiguresUnknownNotZero) {
  auto s = source("nvml.init=0\nnvml.count=1\ngpu0.utilization=50 5\ngpu0.processes=!4\n");
  GpuReading r = first_reading(*s);
  ASSERT_EQ(r.gpus.size(), 1u) << s->description();
  EXPECT_FALSE(r.processes_listed);
  EXPECT_TRUE(r.process_memory_bytes.empty());
  EXPECT_NE(r.processes_unknown.find("Insufficient Permissions"), std::string::npos) << r.processes_unknown;
}

TEST_F(NvmlSource, AbsentLibraryIsSaidNotZero) {
  auto s = source(k_a100, "/nonexistent/gpudoctor-test/libnvidia-ml.so.1");
  EXPECT_EQ(readings_during(*s, 1s), 0);
  settle(*s);
  EXPECT_NE(s->description().find("NVML is not available"), std::string::npos) << s->description();
  EXPECT_NE(s->description().find("libnvidia-ml.so.1"), std::string::npos) << s->description();
}

TEST_F(NvmlSource, MissingRequiredSymbolIsNamed) {
  auto s = source(k_a100, GPUDOCTOR_FAKE_NVML_MISSING_SYMBOLS);
  EXPECT_EQ(readings_during(*s, 1s), 0);
  settle(*s);
  EXPECT_NE(s->description().find("nvmlDeviceGetCount"), std::string::npos) << s->description();
}

TEST_F(NvmlSource, InitErrorCarriesNvmlText) {
  auto s = source("nvml.init=!18\n");
  EXPECT_EQ(readings_during(*s, 1s), 0);
  settle(*s);
  EXPECT_NE(s->description().find("Driver/library version mismatch"), std::string::npos) << s->description();
}

TEST_F(NvmlSource, InitThatHangsIsGivenUpNeverWaitedOn) {
  auto s = source("nvml.init=hang\n");
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(readings_during(*s, 2500ms), 0);
  // Every read returned within its bound: 2.5 s of reads took about 2.5 s.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_NE(s->description().find("did not finish initialising"), std::string::npos) << s->description();
}

TEST_F(NvmlSource, ASampleWhileNvmlInitialisesSaysSo) {
  auto s = source("nvml.init=hang\n");
  GpuReading r = s->read({});
  EXPECT_TRUE(r.gpus.empty());
  EXPECT_FALSE(r.processes_listed);
  EXPECT_EQ(r.processes_unknown, "NVML was still initialising");
}

// The crash and the hang are the outcomes under test, not a slow start: the init bound is generous.
TEST_F(NvmlSource, InitThatCrashesIsReported) {
  auto s = source("nvml.init=crash\n", GPUDOCTOR_FAKE_NVML, 15000ms);
  EXPECT_EQ(readings_during(*s, 1s), 0);
  read_until_said(*s, "SIGSEGV");
  EXPECT_NE(s->description().find("SIGSEGV"), std::string::npos) << s->description();
}

TEST_F(NvmlSource, SampleThatHangsStopsTheHelper) {
  std::string scenario = std::string(k_a100) + "gpu0.utilization=hang\n";
  auto s = source(scenario, GPUDOCTOR_FAKE_NVML, 15000ms);
  EXPECT_EQ(readings_during(*s, 2s), 0);
  read_until_said(*s, "NVML stopped answering");
  EXPECT_NE(s->description().find("NVML stopped answering"), std::string::npos) << s->description();
}

TEST(NvmlSourceOff, NoneTurnsSamplingOff) {
  auto fs = sys::make_rooted_file_system("/");
  NvmlSourceOptions o;
  o.library = "none";
  auto s = make_nvml_gpu_source(*fs, "/nonexistent/never-run", o);
  EXPECT_TRUE(s->read({}).gpus.empty());
  EXPECT_NE(s->description().find("GPUDOCTOR_NVML_LIBRARY=none"), std::string::npos);
}

TEST(NvmlSourceOff, HelperThatCannotStartIsSaid) {
  auto fs = sys::make_rooted_file_system("/");
  auto s = make_nvml_gpu_source(*fs, "/nonexistent/gpudoctor-test/gpudoctor", {});
  EXPECT_TRUE(s->read({}).gpus.empty());
  EXPECT_NE(s->description().find("could not start"), std::string::npos) << s->description();
}

}  // namespace
}  // namespace gpudoctor::watch

namespace gpudoctor::watch {
namespace {

// A TEST DOUBLE of the `__sample-nvml` helper, a shell script, for what the real one never does:
// chatter before its answers, garbage, a wrong shape.
class ScriptedHelper : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = stdfs::temp_directory_path() /
            ("gpudoctor-scripted-helper-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    stdfs::create_directories(m_dir);
    m_fs = sys::make_rooted_file_system("/");
  }
  // Each helper its own file: a running shell reads its script as it goes.
  std::unique_ptr<GpuSource> source(const std::string& script) {
    stdfs::path helper = m_dir / ("helper" + std::to_string(++m_count) + ".sh");
    std::ofstream(helper) << "#!/bin/sh\n" << script;
    stdfs::permissions(helper, stdfs::perms::owner_all);
    NvmlSourceOptions o;
    o.library = "libnvidia-ml.so.1";
    o.answer_wait = 50ms;
    o.init_timeout = 1500ms;
    o.hang_timeout = 500ms;
    return make_nvml_gpu_source(*m_fs, helper.string(), o);
  }
  void TearDown() override {
    std::error_code ec;
    stdfs::remove_all(m_dir, ec);
  }
  stdfs::path m_dir;
  std::unique_ptr<sys::FileSystem> m_fs;
  int m_count = 0;
};

GpuReading read_for(GpuSource& s, std::chrono::milliseconds span) {
  auto end = std::chrono::steady_clock::now() + span;
  GpuReading last;
  while (std::chrono::steady_clock::now() < end) {
    GpuReading r = s.read({});
    if (!r.gpus.empty()) return r;
    std::this_thread::sleep_for(20ms);
  }
  return last;
}

TEST_F(ScriptedHelper, ChatterBeforeTheAnswersIsSkipped) {
  auto s = source(
      "echo 'NVML: some vendor banner'\n"
      "echo '{\"ready\": true, \"driver_version\": \"570.1\"}'\n"
      "while read l; do echo 'noise'; echo '{\"gpus\": [{\"index\": 0, \"name\": \"X\", \"busy_percent\": 7}]}'; done\n");
  GpuReading r = read_for(*s, 3s);
  ASSERT_EQ(r.gpus.size(), 1u) << s->description();
  EXPECT_EQ(r.gpus[0].busy_percent, Known<double>(7.0));
  EXPECT_EQ(s->description(), "NVML 570.1");
}

TEST_F(ScriptedHelper, ALineOfChatterPerAnswerIsNeverGivenUp) {
  // 100 readings, each after a banner line: more non-answers over the run than the in-a-row bound.
  auto s = source(
      "echo '{\"ready\": true}'\n"
      "while read l; do echo 'vendor: sampling'; echo '{\"gpus\": [{\"index\": 0, \"busy_percent\": 3}]}'; done\n");
  int readings = 0;
  for (int i = 0; i < 400 && readings < 100; ++i) {
    if (!s->read({}).gpus.empty()) ++readings;
  }
  EXPECT_EQ(readings, 100) << s->description();
  EXPECT_EQ(s->description(), "NVML");
}

TEST_F(ScriptedHelper, OnlyGarbageIsGivenUpWithWhatItSaid) {
  auto s = source("while true; do echo 'not json at all'; done\n");
  EXPECT_TRUE(read_for(*s, 1s).gpus.empty());
  EXPECT_NE(s->description().find("not json at all"), std::string::npos) << s->description();
}

TEST_F(ScriptedHelper, WrongShapesAreSaidNotCrashedOn) {
  auto s = source("echo '{\"ready\": \"yes\"}'\nsleep 30\n");
  EXPECT_TRUE(read_for(*s, 1s).gpus.empty());
  EXPECT_NE(s->description().find("without saying whether NVML is ready"), std::string::npos) << s->description();
  auto t = source(
      "echo '{\"ready\": true}'\n"
      "while read l; do echo '{\"gpus\": [{\"index\": \"zero\"}], \"processes\": 5}'; done\n");
  EXPECT_TRUE(read_for(*t, 1s).gpus.empty());
  EXPECT_NE(t->description().find("unreadable reading"), std::string::npos) << t->description();
}

}  // namespace
}  // namespace gpudoctor::watch

namespace gpudoctor::watch {
namespace {

// The helper runs a vendor library: whatever it prints is read as untrusted input.
TEST(NvmlProtocol, MalformedReadingsAreErrorValues) {
  for (const char* bad : {R"({"processes": [{"pid": 7, "memory_bytes": -1}]})",
                          R"({"processes": [{"pid": 7, "memory_bytes": "lots"}]})",
                          R"({"gpus": [17]})", R"({"processes": [{"pid": 7, "sm_percent": []}]})", R"([1, 2])",
                          // found by the nvml fuzzer: a float beyond 2^64 where a byte count belongs
                          R"({"gpus": [{"index": 0, "memory_used_bytes": 3.22123e19}]})",
                          R"({"gpus": [{"index": 0, "memory_total_bytes": -5}]})"}) {
    auto r = parse_nvml_reading(nlohmann::json::parse(bad), "");
    EXPECT_TRUE(std::holds_alternative<std::string>(r)) << bad;
  }
  auto ok = parse_nvml_reading(
      nlohmann::json::parse(R"({"processes": [{"pid": 7, "memory_bytes": 10}, {"pid": 7, "memory_bytes": 5, "sm_percent": 40},
                                             {"pid": -3, "memory_bytes": 1}, {"pid": 9}]})"),
      "");
  ASSERT_TRUE(std::holds_alternative<GpuReading>(ok));
  const auto& g = std::get<GpuReading>(ok);
  EXPECT_TRUE(g.processes_listed);
  EXPECT_EQ(*g.process_memory_bytes.at(7), 15u);  // summed over GPUs
  EXPECT_FALSE(g.process_memory_bytes.at(9).known());
  EXPECT_EQ(g.process_memory_bytes.count(-3), 0u);
  EXPECT_EQ(g.process_sm_percent.at(7), 40.0);
  auto ns = parse_nvml_reading(nlohmann::json::parse(R"({"processes": [{"pid": 7, "memory_bytes": 10}]})"), "a container");
  ASSERT_TRUE(std::holds_alternative<GpuReading>(ns));
  EXPECT_FALSE(std::get<GpuReading>(ns).processes_listed);
  EXPECT_EQ(std::get<GpuReading>(ns).processes_unknown, "a container");
}

}  // namespace
}  // namespace gpudoctor::watch
