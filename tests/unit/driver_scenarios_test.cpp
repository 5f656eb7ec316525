// End to end through `gpudoctor check --json`: the driver probe's child loads the test doubles of
// libnvidia-ml, libcuda and libcudart (tests/doubles), each scripted by one scenario of
// tests/driver/, and the driver-layer findings must be exactly the scenario's `# expect:` line.
// Also: capture-then-`check --root` replays the driver answers, and the real CUDA toolkit's
// libraries where the toolkit is installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <map>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <checks/check.hpp>
#include <sys/subprocess.hpp>
#include <util/text.hpp>

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

const fs::path k_scenarios = fs::path(GPUDOCTOR_SOURCE_DIR) / "tests" / "driver";
constexpr const char* k_absent = "/nonexistent/gpudoctor-test/libabsent.so.1";

std::string gpudoctor_bin() {
  const char* bin = std::getenv("GPUDOCTOR_BIN");
  return bin ? bin : std::string(GPUDOCTOR_BINARY_DIR) + "/gpudoctor";
}

struct Scenario {
  std::string name;
  fs::path path;
  std::set<std::string> expect;
  std::map<std::string, std::string> headers;  // "# key: value"
};

Scenario load(const std::string& name) {
  Scenario s;
  s.name = name;
  s.path = k_scenarios / (name + ".scenario");
  std::ifstream in(s.path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("# ")) continue;
    auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    std::string key = line.substr(2, colon - 2);
    std::string value = line.substr(colon + 2);
    if (key == "expect") {
      for (auto id : util::split_ws(value)) s.expect.insert(std::string(id));
    } else {
      s.headers[key] = value;
    }
  }
  return s;
}

std::set<std::string> driver_layer_ids() {
  std::set<std::string> ids;
  for (const auto& c : checks::driver_checks()) ids.insert(std::string(c.info.id));
  return ids;
}

std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view v(*e);
    if (v.starts_with("GPUDOCTOR_NVML_LIBRARY=") || v.starts_with("GPUDOCTOR_CUDA_LIBRARY=") ||
        v.starts_with("GPUDOCTOR_CUDART_LIBRARY=") || v.starts_with("GPUDOCTOR_FAKE_SCENARIO=")) {
      continue;
    }
    env.emplace_back(v);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<std::string> double_env(const Scenario& s) {
  auto pick = [&](const char* key, const char* fake, const char* other_name, const char* other) -> std::string {
    auto it = s.headers.find(key);
    if (it == s.headers.end()) return fake;
    if (it->second == "absent") return k_absent;
    if (it->second == other_name) return other;
    return it->second == "fake" ? fake : "none";
  };
  std::string cudart = s.headers.contains("cudart") ? pick("cudart", GPUDOCTOR_FAKE_CUDART, "", "") : "none";
  return {"GPUDOCTOR_NVML_LIBRARY=" + pick("nvml", GPUDOCTOR_FAKE_NVML, "missing_symbols", GPUDOCTOR_FAKE_NVML_MISSING_SYMBOLS),
          "GPUDOCTOR_CUDA_LIBRARY=" + pick("cuda", GPUDOCTOR_FAKE_CUDA, "", ""), "GPUDOCTOR_CUDART_LIBRARY=" + cudart,
          "GPUDOCTOR_FAKE_SCENARIO=" + s.path.string()};
}

struct CliRun {
  sys::ProcessResult result;
  nlohmann::json json;
};

CliRun run(std::vector<std::string> argv, std::vector<std::string> env) {
  sys::ProcessOptions o;
  o.argv = std::move(argv);
  o.env = std::move(env);
  o.timeout = std::chrono::seconds(60);
  auto r = sys::run_process(o);
  EXPECT_TRUE(r.has_value());
  CliRun out;
  if (!r) return out;
  out.result = *r;
  out.json = nlohmann::json::parse(r->out, nullptr, false);
  return out;
}

std::set<std::string> driver_findings(const nlohmann::json& report) {
  std::set<std::string> ids;
  auto mine = driver_layer_ids();
  if (!report.is_object() || !report.contains("findings")) return ids;
  for (const auto& f : report["findings"]) {
    auto id = f.value("id", "");
    if (mine.contains(id)) ids.insert(id);
  }
  return ids;
}

const nlohmann::json* finding(const nlohmann::json& report, std::string_view id) {
  for (const auto& f : report["findings"]) {
    if (f.value("id", "") == id) return &f;
  }
  return nullptr;
}

// The scenarios assume NVML's answers are the whole truth; a live NVIDIA GPU on this machine's PCI
// bus would join them (the checks also read the PCI functions).
bool machine_has_nvidia_pci() {
  std::error_code ec;
  for (const auto& d : fs::directory_iterator("/sys/bus/pci/devices", ec)) {
    std::ifstream v(d.path() / "vendor");
    std::string vendor;
    v >> vendor;
    if (vendor == "0x10de") return true;
  }
  return false;
}

class DriverScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(DriverScenario, FindingsAreExactlyTheExpectedOnes) {
  if (machine_has_nvidia_pci()) GTEST_SKIP() << "this machine has an NVIDIA GPU on PCI; the scenarios script NVML alone";
  Scenario s = load(GetParam());
  ASSERT_FALSE(s.expect.empty()) << s.path << " has no # expect: line";
  std::vector<std::string> argv = {gpudoctor_bin(), "check", "--json"};
  if (auto it = s.headers.find("args"); it != s.headers.end()) {
    for (auto a : util::split_ws(it->second)) argv.emplace_back(a);
  }
  CliRun r = run(argv, environment_with(double_env(s)));
  ASSERT_TRUE(r.json.is_object()) << r.result.err;
  EXPECT_EQ(driver_findings(r.json), s.expect) << r.result.out.substr(0, 4000);
  // A hung or crashed library costs its deadline, never gpudoctor itself.
  EXPECT_FALSE(r.result.timed_out);
  EXPECT_EQ(r.result.term_signal, 0);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, DriverScenario, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& e : fs::directory_iterator(k_scenarios)) {
                             if (e.path().extension() == ".scenario") names.push_back(e.path().stem().string());
                           }
                           std::sort(names.begin(), names.end());
                           return names;
                         }()),
                         [](const auto& param_info) { return param_info.param; });

TEST(DriverScenarioDetail, MemoryHeldNamesThePidsAndCommands) {
  if (machine_has_nvidia_pci()) GTEST_SKIP() << "this machine has an NVIDIA GPU on PCI";
  Scenario s = load("memory_held_by_others");
  CliRun r = run({gpudoctor_bin(), "check", "--json"}, environment_with(double_env(s)));
  const auto* f = finding(r.json, "gpu.memory_held_by_others");
  ASSERT_NE(f, nullptr);
  std::string evidence = f->at("evidence").dump();
  EXPECT_NE(evidence.find("pid 4194000"), std::string::npos) << evidence;
  // The other pid is the `gpudoctor check` that ran the probe: its /proc/PID/cmdline was read.
  EXPECT_NE(evidence.find(" check --json"), std::string::npos) << evidence;
}

TEST(DriverScenarioDetail, HangCostsTheDeadlineOnly) {
  Scenario s = load("probe_timeout");
  auto start = std::chrono::steady_clock::now();
  CliRun r = run({gpudoctor_bin(), "check", "--json", "--timeout", "0.5"}, environment_with(double_env(s)));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);
  const auto* f = finding(r.json, "probe.timeout");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->at("message").get<std::string>().find("500 ms"), std::string::npos);
}

// The libraries are asked in one shared child; when it dies, the crash is pinned on the library that
// crashed (asked again alone), and the others' answers are kept.
TEST(DriverScenarioDetail, ACrashInTheSharedChildIsPinnedOnItsLibrary) {
  Scenario s = load("probe_crashed");
  CliRun r = run({gpudoctor_bin(), "facts", "--json"}, environment_with(double_env(s)));
  ASSERT_TRUE(r.json.is_object()) << r.result.err;
  const auto& d = r.json["driver"];
  EXPECT_EQ(d["nvml"]["run"]["outcome"], "crashed") << d["nvml"]["run"].dump();
  EXPECT_NE(d["nvml"]["run"]["detail"].get<std::string>().find("SIGSEGV"), std::string::npos);
  EXPECT_EQ(d["cuda"]["run"]["outcome"], "answered") << d["cuda"]["run"].dump();
}

TEST(DriverScenarioDetail, StubCodeIsExplained) {
  Scenario s = load("cuda_stub_scripted");
  CliRun r = run({gpudoctor_bin(), "check", "--json"}, environment_with(double_env(s)));
  const auto* f = finding(r.json, "driver.cuda_init_failed");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->at("message").get<std::string>().find("CUDA_ERROR_STUB_LIBRARY (34)"), std::string::npos) << f->dump();
}

nlohmann::json without_timings(nlohmann::json driver) {
  for (auto part : {"nvml", "cuda", "cudart"}) driver[part]["run"].erase("wall_ms");
  return driver;
}

TEST(DriverCapture, CheckRootReplaysTheDriverAnswers) {
  if (machine_has_nvidia_pci()) GTEST_SKIP() << "this machine has an NVIDIA GPU on PCI";
  Scenario s = load("mixed_models_8");
  fs::path dir = fs::path(GPUDOCTOR_BINARY_DIR) / "driver-capture-test";
  fs::create_directories(dir);
  fs::path archive = dir / "mixed.tar.gz";
  auto env = environment_with(double_env(s));
  CliRun live = run({gpudoctor_bin(), "check", "--json"}, env);
  CliRun cap = run({gpudoctor_bin(), "capture", "-o", archive.string()}, env);
  ASSERT_EQ(cap.result.exit_code, 0) << cap.result.err;
  // No double named: the replay must not load anything, and still see the eight GPUs.
  CliRun replay = run({gpudoctor_bin(), "check", "--json", "--root", archive.string()},
                   environment_with({"GPUDOCTOR_NVML_LIBRARY=" + std::string(k_absent)}));
  ASSERT_TRUE(replay.json.is_object()) << replay.result.err;
  EXPECT_EQ(driver_findings(replay.json), s.expect);
  EXPECT_EQ(driver_findings(replay.json), driver_findings(live.json));
  ASSERT_TRUE(replay.json.contains("facts"));
  EXPECT_EQ(without_timings(replay.json["facts"]["driver"]), without_timings(live.json["facts"]["driver"]));
  EXPECT_EQ(replay.json["facts"]["driver"]["nvml"]["devices"].size(), 8u);
}

// The CUDA toolkit's own libraries, where installed: no driver is on this kind of machine, so the
// runtime answers 35 and the stub libcuda 34.
constexpr const char* k_toolkit = "/usr/local/cuda/lib64";

std::string toolkit_cudart() {
  std::error_code ec;
  std::string best;
  for (const auto& e : fs::directory_iterator(k_toolkit, ec)) {
    auto n = e.path().filename().string();
    if (n.starts_with("libcudart.so.") && (best.empty() || n > fs::path(best).filename().string())) best = e.path();
  }
  return best;
}

bool libcuda_installed() {
  for (auto dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu"}) {
    if (fs::exists(fs::path(dir) / "libcuda.so.1")) return true;
  }
  return false;
}

TEST(DriverRealToolkit, RuntimeWithoutDriverIsNoDriverForRuntime) {
  std::string cudart = toolkit_cudart();
  if (cudart.empty()) GTEST_SKIP() << "no CUDA toolkit libcudart.so.N under " << k_toolkit;
  if (libcuda_installed()) GTEST_SKIP() << "an NVIDIA driver (libcuda.so.1) is installed: the runtime will not answer 35";
  CliRun r = run({gpudoctor_bin(), "check", "--json"},
              environment_with({"GPUDOCTOR_CUDART_LIBRARY=" + cudart, "GPUDOCTOR_NVML_LIBRARY=none"}));
  ASSERT_TRUE(r.json.is_object()) << r.result.err;
  const auto& rt = r.json["facts"]["driver"]["cudart"];
  EXPECT_EQ(rt["device_count_result"], 35) << rt.dump();
  EXPECT_EQ(rt["device_count_error"], "cudaErrorInsufficientDriver");
  EXPECT_TRUE(driver_findings(r.json).contains("driver.no_driver_for_runtime")) << r.result.out.substr(0, 3000);
}

TEST(DriverRealToolkit, StubLibcudaIsExplained) {
  fs::path stub = fs::path(k_toolkit) / "stubs" / "libcuda.so";
  if (!fs::exists(stub)) GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  CliRun r = run({gpudoctor_bin(), "check", "--json"},
              environment_with({"GPUDOCTOR_CUDA_LIBRARY=" + stub.string(), "GPUDOCTOR_NVML_LIBRARY=none",
                                "GPUDOCTOR_CUDART_LIBRARY=none"}));
  ASSERT_TRUE(r.json.is_object()) << r.result.err;
  EXPECT_EQ(r.json["facts"]["driver"]["cuda"]["init_result"], 34) << r.json["facts"]["driver"]["cuda"].dump();
  const auto* f = finding(r.json, "driver.cuda_init_failed");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->at("message").get<std::string>().find("stub"), std::string::npos) << f->dump();
}

}  // namespace
}  // namespace gpudoctor
