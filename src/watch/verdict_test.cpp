#include <watch/verdict.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace gpudoctor::watch {
namespace {

using facts::Finding;
using facts::Layer;
using facts::Severity;

constexpr std::uint64_t k_gib = 1ull << 30;

ProcessSample proc(int pid, double cpu, std::uint32_t libs = 0, std::vector<std::string> devices = {}, int ppid = 1) {
  ProcessSample p;
  p.pid = pid;
  p.ppid = ppid;
  p.name = pid == 100 ? "python" : "pt_data_worker";
  p.cpu_percent = cpu;
  p.threads = 4;
  p.libraries = libs;
  p.devices = std::move(devices);
  p.gpu_memory_bytes = Known<std::uint64_t>::unknown("no GPU source");
  return p;
}

GpuSample gpu(double busy, std::uint64_t used, std::uint64_t total = 80 * k_gib) {
  GpuSample g;
  g.index = 0;
  g.name = "NVIDIA H100 80GB HBM3";
  g.busy_percent = busy;
  g.memory_used_bytes = used;
  g.memory_total_bytes = total;
  return g;
}

// A run of `n` samples, 0.5 s apart, each built by `make(i)`.
template <typename F>
Timeline timeline(int n, F make, int exit_status = 0) {
  Timeline t;
  t.command = {"python", "train.py"};
  t.root_pid = 100;
  t.interval_s = 0.5;
  for (int i = 0; i < n; ++i) {
    Sample s = make(i);
    s.t = 0.5 * i;
    t.samples.push_back(std::move(s));
  }
  t.duration_s = 0.5 * n;
  t.exit_status = exit_status;
  t.gpu_source = "NVML";
  return t;
}

Finding machine_finding(std::string id, Layer layer, Severity severity, std::string message) {
  Finding f;
  f.id = std::move(id);
  f.layer = layer;
  f.severity = severity;
  f.message = std::move(message);
  f.fix = "pip install torch --index-url .../cu124";
  return f;
}

Finding log_finding(std::string id, Severity severity, std::string message) {
  Finding f;
  f.id = std::move(id);
  f.layer = Layer::run;
  f.severity = severity;
  f.message = std::move(message);
  f.fix = "a log fix";
  return f;
}

constexpr auto k_cuda = static_cast<std::uint32_t>(GpuLibrary::libcuda);
constexpr auto k_cudart = static_cast<std::uint32_t>(GpuLibrary::libcudart);
constexpr auto k_torch_cuda = static_cast<std::uint32_t>(GpuLibrary::libtorch_cuda);

bool names(const Finding& f, const std::string& id) {
  return std::find(f.explained_by.begin(), f.explained_by.end(), id) != f.explained_by.end();
}

TEST(Verdict, NeverUsedGpuIsJoinedWithTheCpuOnlyBuild) {
  auto t = timeline(6, [](int) { return Sample{0, {proc(100, 99)}, {}}; });
  std::vector<Finding> machine = {
      machine_finding("driver.no_driver_for_runtime", Layer::driver, Severity::warning, "No NVIDIA driver"),
      machine_finding("torch.cpu_only_build", Layer::framework, Severity::error, "torch 2.5.1+cpu is a CPU-only build"),
      machine_finding("env.some_info", Layer::environment, Severity::info, "just so you know"),
  };
  Verdict v = decide(t, machine, {});
  ASSERT_FALSE(v.findings.empty());
  const Finding& f = v.findings.front();
  EXPECT_EQ(f.id, "run.never_used_gpu");
  EXPECT_EQ(f.severity, Severity::error);
  EXPECT_TRUE(names(f, "torch.cpu_only_build"));
  EXPECT_TRUE(names(f, "driver.no_driver_for_runtime"));
  EXPECT_FALSE(names(f, "env.some_info")) << "an info finding outside the framework layer explains nothing";
  EXPECT_NE(f.message.find("torch 2.5.1+cpu"), std::string::npos) << "the first (error) cause leads: " << f.message;
  EXPECT_NE(f.message.find("framework layer"), std::string::npos) << f.message;
  EXPECT_EQ(f.fix, machine[1].fix) << "the root cause's fix is the fix";
  ASSERT_EQ(v.findings.size(), 3u);
  EXPECT_EQ(v.findings[1].id, "torch.cpu_only_build") << "the explaining findings are attached, root cause first";
  EXPECT_EQ(v.findings[2].id, "driver.no_driver_for_runtime");
}

TEST(Verdict, AFrameworkFindingExplainsAtAnySeverity) {
  // On a machine with no GPU the framework layer reports a CPU-only build as info; it still explains.
  auto t = timeline(4, [](int) { return Sample{0, {proc(100, 99)}, {}}; });
  std::vector<Finding> machine = {
      machine_finding("torch.cpu_only_build", Layer::framework, Severity::info, "torch is a CPU-only build")};
  EXPECT_TRUE(names(decide(t, machine, {}).findings.at(0), "torch.cpu_only_build"));
}

TEST(Verdict, LoadedTheCudaRuntimeButOpenedNoDeviceSaysItTried) {
  auto t = timeline(4, [](int) { return Sample{0, {proc(100, 5, k_cudart, {"/dev/nvidiactl"})}, {}}; });
  Verdict v = decide(t, {}, {});
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings[0].id, "run.never_used_gpu");
  EXPECT_NE(v.findings[0].message.find("tried"), std::string::npos) << v.findings[0].message;
  EXPECT_NE(v.findings[0].message.find("libcudart"), std::string::npos);
  EXPECT_NE(v.findings[0].message.find("/dev/nvidiactl"), std::string::npos);
}

TEST(Verdict, BusyGpuIsGpuBound) {
  auto t = timeline(10, [](int i) {
    return Sample{0, {proc(100, 100, k_cuda | k_torch_cuda, {"/dev/nvidia0", "/dev/nvidiactl"})},
                  {gpu(90 + i % 5, 40 * k_gib)}};
  });
  Verdict v = decide(t, {}, {});
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings[0].id, "run.gpu_bound");
  EXPECT_EQ(v.findings[0].severity, Severity::info);
  EXPECT_NE(v.findings[0].message.find("92 %"), std::string::npos) << v.findings[0].message;
}

TEST(Verdict, LowBusyWithASaturatedFeederIsInputBound) {
  auto t = timeline(10, [](int) {
    return Sample{0, {proc(100, 100, k_cuda, {"/dev/nvidia0"})}, {gpu(4, static_cast<std::uint64_t>(9.2 * k_gib))}};
  });
  Verdict v = decide(t, {}, {});
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings[0].id, "run.input_bound");
  EXPECT_NE(v.findings[0].message.find("4 %"), std::string::npos) << v.findings[0].message;
  EXPECT_NE(v.findings[0].message.find("9.2 GiB"), std::string::npos) << v.findings[0].message;
  EXPECT_NE(v.findings[0].fix.find("num_workers"), std::string::npos);
}

TEST(Verdict, LowBusyWithIdleCpusIsGpuIdle) {
  auto t = timeline(10, [](int) {
    return Sample{0, {proc(100, 3, k_cuda, {"/dev/nvidia0"}), proc(101, 1, 0, {}, 100)}, {gpu(0, 20 * k_gib)}};
  });
  Verdict v = decide(t, {}, {});
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings[0].id, "run.gpu_idle");
}

TEST(Verdict, OnlyTheGpusTheRunHeldCount) {
  // GPU 1 is busy with someone else's job; this run holds GPU 0, which idles.
  auto t = timeline(6, [](int) {
    GpuSample other = gpu(99, 70 * k_gib);
    other.index = 1;
    return Sample{0, {proc(100, 2, k_cuda, {"/dev/nvidia0"})}, {gpu(1, 10 * k_gib), other}};
  });
  EXPECT_EQ(decide(t, {}, {}).findings.at(0).id, "run.gpu_idle");
}

TEST(Verdict, OomMessageDecidesAndNamesThePeak) {
  auto t = timeline(8, [](int i) {
    return Sample{0, {proc(100, 100, k_cuda, {"/dev/nvidia0"})}, {gpu(95, (70 + i) * k_gib)}};
  }, 1);
  t.events.push_back({3.5, EventKind::log, "log.cuda_oom", Severity::error,
                      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"});
  std::vector<Finding> log = {log_finding("log.cuda_oom", Severity::error, "CUDA ran out of memory allocating 2.00 GiB"),
                              log_finding("log.cudnn_status", Severity::error, "cuDNN failed")};
  Verdict v = decide(t, {}, log);
  ASSERT_FALSE(v.findings.empty());
  const Finding& f = v.findings[0];
  EXPECT_EQ(f.id, "run.oom");
  EXPECT_TRUE(names(f, "log.cuda_oom"));
  EXPECT_NE(f.message.find("Tried to allocate 2.00 GiB"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("3.5 s"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("77.0 GiB of 80.0 GiB"), std::string::npos) << f.message;
  EXPECT_NE(f.fix.find("expandable_segments"), std::string::npos);
  // Every log finding is in the report, the OOM first.
  ASSERT_EQ(v.findings.size(), 3u);
  EXPECT_EQ(v.findings[1].id, "log.cuda_oom");
  EXPECT_EQ(v.findings[2].id, "log.cudnn_status");
}

TEST(Verdict, FailedRunWithAGpuErrorCrashedOnIt) {
  auto t = timeline(4, [](int) { return Sample{0, {proc(100, 100, k_cuda, {"/dev/nvidia0"})}, {}}; }, 134);
  t.term_signal = 6;
  t.events.push_back({1.0, EventKind::log, "log.device_side_assert", Severity::error,
                      "RuntimeError: CUDA error: device-side assert triggered"});
  std::vector<Finding> log = {log_finding("log.device_side_assert", Severity::error, "a device-side assert fired")};
  std::vector<Finding> machine = {
      machine_finding("driver.version_mismatch", Layer::driver, Severity::error, "kernel module 550, library 535")};
  Verdict v = decide(t, machine, log);
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings[0].id, "run.crashed_on_gpu_error");
  EXPECT_TRUE(names(v.findings[0], "log.device_side_assert"));
  EXPECT_TRUE(names(v.findings[0], "driver.version_mismatch"));
  EXPECT_NE(v.findings[0].message.find("signal 6"), std::string::npos) << v.findings[0].message;
}

TEST(Verdict, AnErrorMessageInASuccessfulRunIsNotACrash) {
  auto t = timeline(4, [](int) { return Sample{0, {proc(100, 100, k_cuda, {"/dev/nvidia0"})}, {gpu(80, k_gib)}}; });
  std::vector<Finding> log = {log_finding("log.nccl_error", Severity::error, "NCCL failed, then retried")};
  EXPECT_EQ(decide(t, {}, log).findings.at(0).id, "run.gpu_bound");
}

TEST(Verdict, UnreportedUtilisationIsNotIdle) {
  // The device was held, but nothing reported how busy it was: no verdict, and a note saying so.
  auto t = timeline(6, [](int) { return Sample{0, {proc(100, 100, k_cuda, {"/dev/nvidia0"})}, {}}; });
  t.gpu_source = "NVML is not available: libnvidia-ml.so.1 not found";
  Verdict v = decide(t, {}, {});
  EXPECT_TRUE(v.findings.empty());
  ASSERT_EQ(v.notes.size(), 1u);
  EXPECT_NE(v.notes[0].find("unknown"), std::string::npos);
  EXPECT_NE(v.notes[0].find("libnvidia-ml.so.1 not found"), std::string::npos);
}

TEST(Verdict, NvmlListingAProcessCountsAsUsingTheGpu) {
  // In a container /proc may not show the device nodes (bind-mounted differently); NVML does.
  auto t = timeline(6, [](int) {
    Sample s{0, {proc(100, 100)}, {gpu(70, 5 * k_gib)}};
    s.processes[0].gpu_memory_bytes = std::uint64_t{3 * k_gib};
    return s;
  });
  EXPECT_EQ(decide(t, {}, {}).findings.at(0).id, "run.gpu_bound");
}

TEST(Verdict, EveryIdHasACatalogueEntry) {
  std::vector<std::string> ids;
  for (const auto& info : run_verdict_infos()) {
    ids.emplace_back(info.id);
    EXPECT_EQ(info.layer, Layer::run);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"run.never_used_gpu", "run.gpu_idle", "run.input_bound", "run.gpu_bound",
                                           "run.oom", "run.crashed_on_gpu_error"}));
}

}  // namespace
}  // namespace gpudoctor::watch

namespace gpudoctor::watch {
namespace {

TEST(Verdict, GpuBoundNamesTheProcessesNvmlSawAndASlowedGpu) {
  auto t = timeline(10, [](int i) {
    ProcessSample p = proc(100, 30);
    p.gpu_memory_bytes = std::uint64_t{30 * k_gib};
    p.gpu_sm_percent = 90.0;
    GpuSample g = gpu(95, 31 * k_gib);
    // Hot for the second half of the run: HW thermal slowdown (0x40) beside the normal power cap.
    g.throttle_reasons = i >= 5 ? std::uint64_t{0x44} : std::uint64_t{0x4};
    return Sample{0, {p}, {g}};
  });
  Verdict v = decide(t, {}, {});
  ASSERT_FALSE(v.findings.empty());
  const Finding& f = v.findings.front();
  EXPECT_EQ(f.id, "run.gpu_bound");
  EXPECT_NE(f.message.find("GPU 0 was slowed in 5 of 10 samples"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("HW thermal slowdown"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.find("SW power cap"), std::string::npos) << "a power cap alone is normal: " << f.message;
  EXPECT_NE(f.fix.find("cooling"), std::string::npos) << f.fix;
  bool process_line = std::any_of(f.evidence.begin(), f.evidence.end(), [](const std::string& e) {
    return e.find("python (pid 100) held up to 30.0 GiB") != std::string::npos &&
           e.find("SM busy 90 %") != std::string::npos;
  });
  EXPECT_TRUE(process_line) << "NVML's per-process figures are evidence";
}

TEST(Verdict, GpuBoundWithoutSlowdownKeepsTheUsualAdvice) {
  auto t = timeline(6, [](int) {
    ProcessSample p = proc(100, 30);
    p.gpu_memory_bytes = std::uint64_t{10 * k_gib};
    GpuSample g = gpu(88, 11 * k_gib);
    g.throttle_reasons = std::uint64_t{0x4};
    return Sample{0, {p}, {g}};
  });
  Verdict v = decide(t, {}, {});
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings.front().id, "run.gpu_bound");
  EXPECT_EQ(v.findings.front().message.find("slowed"), std::string::npos) << v.findings.front().message;
  EXPECT_NE(v.findings.front().fix.find("autocast"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::watch

namespace gpudoctor::watch {
namespace {

// Another job keeps the GPU 95 % busy; this run's own kernels (NVML's per-process SM share) run 5 %
// of the time, while its loader saturates a core: input-bound, not GPU-bound.
TEST(Verdict, AGpuBusyWithSomeoneElsesJobDoesNotMakeThisRunGpuBound) {
  auto t = timeline(8, [](int) {
    ProcessSample p = proc(100, 97);
    p.gpu_memory_bytes = std::uint64_t{4 * k_gib};
    p.gpu_sm_percent = 5.0;
    return Sample{0, {p}, {gpu(95, 60 * k_gib)}};
  });
  Verdict v = decide(t, {}, {});
  ASSERT_FALSE(v.findings.empty());
  const Finding& f = v.findings.front();
  EXPECT_EQ(f.id, "run.input_bound") << f.message;
  EXPECT_NE(f.message.find("device busy was 95 %, but this run's own kernels only 5 %"), std::string::npos)
      << f.message;
}

TEST(Verdict, OwnShareCloseToDeviceBusyKeepsTheDeviceFigure) {
  auto t = timeline(8, [](int) {
    ProcessSample p = proc(100, 20);
    p.gpu_memory_bytes = std::uint64_t{4 * k_gib};
    p.gpu_sm_percent = 85.0;
    return Sample{0, {p}, {gpu(92, 5 * k_gib)}};
  });
  Verdict v = decide(t, {}, {});
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings.front().id, "run.gpu_bound");
  EXPECT_NE(v.findings.front().message.find("busy 92 %"), std::string::npos) << v.findings.front().message;
  EXPECT_EQ(v.findings.front().message.find("shared the GPU"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::watch
