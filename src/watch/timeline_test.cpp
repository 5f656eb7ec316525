#include <watch/timeline.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::watch {
namespace {

TEST(Timeline, JsonRoundTripKeepsUnknownApartFromZero) {
  Timeline t;
  t.command = {"python", "train.py"};
  t.root_pid = 77;
  t.duration_s = 2.5;
  t.exit_status = 143;
  t.term_signal = 15;
  t.gpu_source = "NVML 550.54.14";
  t.observer_cpu_seconds = 0.004;
  ProcessSample p;
  p.pid = 77;
  p.ppid = 1;
  p.name = "python";
  p.cpu_percent = Known<double>::unknown("first sample of this process");
  p.libraries = static_cast<std::uint32_t>(GpuLibrary::libcuda) | static_cast<std::uint32_t>(GpuLibrary::libnccl);
  p.devices = {"/dev/nvidia0"};
  p.gpu_memory_bytes = std::uint64_t{0};
  GpuSample g;
  g.index = 0;
  g.busy_percent = 0.0;
  g.memory_used_bytes = Known<std::uint64_t>::unknown("NVML_ERROR_NOT_SUPPORTED");
  t.samples.push_back({0.5, {p}, {g}});
  t.events.push_back({1.0, EventKind::log, "log.cuda_oom", facts::Severity::error, "CUDA out of memory"});
  nlohmann::json j = t;
  EXPECT_EQ(j["samples"][0]["gpus"][0]["busy_percent"], 0.0);
  EXPECT_TRUE(j["samples"][0]["gpus"][0]["memory_used_bytes"].contains("unknown"));
  EXPECT_EQ(j["samples"][0]["processes"][0]["libraries"], (nlohmann::json{"libcuda", "libnccl"}));
  EXPECT_EQ(j.get<Timeline>(), t);
}

}  // namespace
}  // namespace gpudoctor::watch
