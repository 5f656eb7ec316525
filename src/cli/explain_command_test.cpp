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
  std::string path = write_file("explain_warn.log", "The dataloader, train_dataloader, does not have many workers which may "
                                                    "be a bottleneck. Consider increasing the value of the `num_workers`\n");
  Result r = run("explain - < " + path);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("log.dataloader_few_workers"), std::string::npos) << r.out;
}

// JAX's fallback with no CUDA backend that failed: the jaxlib has no CUDA, an error that leads.
TEST_F(ExplainCommand, JaxFallingBackWithoutACudaFailureIsACpuJaxlib) {
  std::string path = write_file("explain_jax.log", "No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 "
                                                   "and rerun for more info.)\n");
  Result r = run("explain --json - < " + path);
  EXPECT_EQ(r.status, 1) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("findings").size(), 2u) << r.out;
  EXPECT_EQ(j.at("findings")[0].at("id"), "jax.cpu_only");
  EXPECT_EQ(j.at("findings")[1].at("id"), "log.jax_cpu_fallback");
}

// Nothing recognised is not "nothing wrong": its own exit status, outcome and a next step.
TEST_F(ExplainCommand, UnrecognisedTextSaysSoAndExitsThree) {
  Result none = run("explain --json < " + write_file("explain_clean.log", "all good\nmy model is slow\n"));
  EXPECT_EQ(none.status, 3);
  auto j = nlohmann::json::parse(none.out);
  ASSERT_EQ(j.at("findings").size(), 1u) << none.out;
  EXPECT_EQ(j.at("findings")[0].at("id"), "explain.unrecognised");
  EXPECT_EQ(j.at("findings")[0].at("severity"), "info");
  EXPECT_EQ(j.at("outcome"), "unrecognised");
  Result text = run("explain < " + write_file("explain_clean2.log", "all good\n"));
  EXPECT_EQ(text.status, 3);
  EXPECT_EQ(text.out.find("found nothing wrong"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("gpudoctor check"), std::string::npos) << text.out;
}

// Read, but no cause: what was read is the evidence, and the next step asks for what is missing.
TEST_F(ExplainCommand, ReadButNoCauseSaysWhatToPasteNext) {
  Result r = run("explain --json < " + write_file("explain_read.log", "my env: torch==2.3.1+cu121, training is slow\n"));
  EXPECT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("findings").size(), 1u) << r.out;
  EXPECT_EQ(j.at("findings")[0].at("id"), "explain.no_cause_found");
  EXPECT_NE(j.at("findings")[0].at("evidence")[0].get<std::string>().find("torch 2.3.1+cu121"), std::string::npos);
  EXPECT_NE(j.at("findings")[0].at("fix").get<std::string>().find("nvidia-smi"), std::string::npos);
  EXPECT_EQ(j.at("findings")[0].at("fix").get<std::string>().find("collect_env"), std::string::npos)
      << "the framework was shown already";
}

// A post with nvidia-smi's banner and a pip list: the described machine goes through the checks,
// and the version reasoning (a CUDA 12.1 wheel on a driver that supports 11.4) comes first.
TEST_F(ExplainCommand, ToolDumpsAreReadIntoFactsAndChecked) {
  std::string post =
      "torch.cuda.is_available() returns False\n"
      "> ```\n"
      "> +-----------------------------------------------------------------------------+\n"
      "> | NVIDIA-SMI 470.182.03   Driver Version: 470.182.03   CUDA Version: 11.4     |\n"
      "> |-------------------------------+----------------------+----------------------+\n"
      "> |   0  NVIDIA GeForce ...  Off  | 00000000:01:00.0 Off |                  N/A |\n"
      "> ```\n"
      "$ pip list | grep torch\n"
      "torch                    2.1.0+cu121\n";
  Result r = run("explain --json < " + write_file("explain_dump.md", post));
  EXPECT_EQ(r.status, 1) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j.at("findings").empty()) << r.out;
  EXPECT_EQ(j["findings"][0]["id"], "torch.cuda_too_new_for_driver") << r.out;
  EXPECT_EQ(j.at("outcome"), "decided");
}

// The driver named in prose, and an old wheel without a local tag: before CUDA 11 there is no
// minor version compatibility, so a 10.1 build on a 10.0 driver is an error, not a warning.
// A message that is what the situation looks like from inside: the situation comes first, and the
// message says it follows from it.
TEST_F(ExplainCommand, TheSituationExplainsTheMessage) {
  Result r = run("explain --json < " + write_file("explain_cgroup.md",
                                                  "My docker container uses the GPU at first, but after a few hours\n"
                                                  "nvidia-smi inside it prints:\nFailed to initialize NVML: Unknown Error\n"));
  auto j = nlohmann::json::parse(r.out);
  ASSERT_GE(j.at("findings").size(), 2u) << r.out;
  EXPECT_EQ(j["findings"][0]["id"], "container.systemd_cgroup_device_loss") << r.out;
  EXPECT_EQ(j["findings"][1]["id"], "log.nvml_init_failed") << r.out;
  EXPECT_EQ(j["findings"][1]["explained_by"][0], "container.systemd_cgroup_device_loss") << r.out;
  // The same message without the situation stays first.
  Result plain = run("explain --json < " + write_file("explain_nvml.md", "Failed to initialize NVML: Unknown Error\n"));
  EXPECT_EQ(nlohmann::json::parse(plain.out)["findings"][0]["id"], "log.nvml_init_failed") << plain.out;
}

// A program's own "CUDA is not available, going on without it" restates the symptom: the common
// cause of the symptom comes first, as a guess, and the message says what it explains.
TEST_F(ExplainCommand, AMessageThatRestatesTheSymptomComesAfterTheGuess) {
  Result r = run("explain --json < " +
                 write_file("explain_autocast.md",
                            "cuda not recognized on our V100 node\n"
                            "torch/amp/autocast_mode.py:204: UserWarning: User provided device_type of 'cuda', but "
                            "CUDA is not available. Disabling\n"));
  auto j = nlohmann::json::parse(r.out);
  ASSERT_GE(j.at("findings").size(), 2u) << r.out;
  EXPECT_EQ(j["findings"][0]["id"], "torch.cpu_only_build") << r.out;
  EXPECT_EQ(j["findings"][0]["severity"], "info") << "a guess, said as one: " << r.out;
  EXPECT_EQ(j["findings"][1]["id"], "log.cuda_unavailable_fallback") << r.out;
  EXPECT_EQ(j["findings"][1]["explained_by"][0], "torch.cpu_only_build") << r.out;
}

// A dump that only yields advice about the GPU (what it accelerates) names no cause: the likely
// cause of the symptom comes before the advice.
TEST_F(ExplainCommand, AdviceAboutTheGpuComesAfterTheLikelyCause) {
  std::string post =
      "onnxruntime on my server: the provider list only shows ['CPUExecutionProvider']\n"
      "| NVIDIA-SMI 550.107.02             Driver Version: 550.107.02     CUDA Version: 12.4     |\n"
      "|   0  Tesla V100-SXM2-16GB           Off |   00000000:00:1E.0 Off |                    0 |\n";
  Result r = run("explain --json < " + write_file("explain_advice.md", post));
  auto j = nlohmann::json::parse(r.out);
  ASSERT_GE(j.at("findings").size(), 2u) << r.out;
  EXPECT_EQ(j["findings"][0]["id"], "ort.cpu_package_shadows_gpu") << r.out;
  EXPECT_EQ(j["findings"][1]["id"], "gpu.capabilities") << r.out;
}

TEST_F(ExplainCommand, ProseDriverAndAnOldTaglessWheel) {
  std::string post =
      "cuda never available after pip install\n"
      "$ pip install torch==1.3.1 torchvision==0.4.2\n"
      ">>> torch.cuda.is_available()\nFalse\n"
      "My nvidia driver is 410.79 on Ubuntu 18.04.\n";
  Result r = run("explain --json < " + write_file("explain_prose_driver.md", post));
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j.at("findings").empty()) << r.out;
  EXPECT_EQ(j["findings"][0]["id"], "torch.cuda_too_new_for_driver") << r.out;
  EXPECT_EQ(j["findings"][0]["severity"], "error") << r.out;
  // "needs driver 418.39" names what a build wants, not what is installed: no driver fact from it.
  Result wants = run("explain --json < " + write_file("explain_wants_driver.md",
                                                      "torch.cuda.is_available() is False\n"
                                                      "$ pip install torch==1.3.1\nCUDA 10.1 needs driver 418.39 or newer\n"));
  auto w = nlohmann::json::parse(wants.out);
  for (const auto& f : w.at("findings")) EXPECT_NE(f["id"], "torch.cuda_too_new_for_driver") << wants.out;
}

TEST_F(ExplainCommand, VersionReasoningOnNativeWindowsAndAContainerWithoutGpus) {
  Result tf = run("explain --json < " + write_file("explain_tf_win.md",
                                                   "TF does not see my GPU\nOS Platform and Distribution: Windows 11\n"
                                                   "Tensorflow Version: 2.12.0\n>>> tf.config.list_physical_devices('GPU')\n[]\n"));
  auto j = nlohmann::json::parse(tf.out);
  ASSERT_FALSE(j.at("findings").empty()) << tf.out;
  EXPECT_EQ(j["findings"][0]["id"], "tf.windows_native_no_gpu");
  Result docker = run("explain --json < " + write_file("explain_docker.md",
                                                       "$ docker run -it pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime bash\n"
                                                       "root@c0ffee:/# nvidia-smi\nbash: nvidia-smi: command not found\n"));
  auto d = nlohmann::json::parse(docker.out);
  ASSERT_FALSE(d.at("findings").empty()) << docker.out;
  EXPECT_EQ(d["findings"][0]["id"], "container.no_gpu");
  // Singularity without --nv is a container without the GPU; with --nv it asks for one.
  Result sif = run("explain --json < " + write_file("explain_sif.md",
                                                    "$ singularity exec train.sif python3 train.py\n"
                                                    "MisconfigurationException: You requested GPUs: [0]\n But your machine only has: []\n"));
  auto s = nlohmann::json::parse(sif.out);
  ASSERT_FALSE(s.at("findings").empty()) << sif.out;
  EXPECT_EQ(s["findings"][0]["id"], "container.no_gpu") << sif.out;
  Result nv = run("explain --json < " + write_file("explain_sif_nv.md", "$ singularity exec --nv train.sif python3 train.py\n"));
  auto nv_json = nlohmann::json::parse(nv.out);  // kept alive: the loop runs over a part of it
  for (const auto& f : nv_json.at("findings")) EXPECT_NE(f["id"], "container.no_gpu") << nv.out;
  // The device nodes passed by hand, without the runtime that mounts the driver's libraries.
  Result dev = run("explain --json < " + write_file("explain_dev_nodes.md",
                                                    "$ docker run --device /dev/nvidia0:/dev/nvidia0 --device "
                                                    "/dev/nvidiactl:/dev/nvidiactl -it nvidia/cuda:12.4.1-devel-ubuntu22.04 bash\n"
                                                    "cudaGetDeviceCount returned 35\n"));
  auto dv = nlohmann::json::parse(dev.out);
  ASSERT_FALSE(dv.at("findings").empty()) << dev.out;
  EXPECT_EQ(dv["findings"][0]["id"], "container.no_gpu") << dev.out;
  Result gpus = run("explain --json < " + write_file("explain_dev_gpus.md",
                                                     "$ docker run --gpus all --device /dev/nvidia0 -it img bash\n"));
  auto gj = nlohmann::json::parse(gpus.out);
  for (const auto& f : gj.at("findings")) EXPECT_NE(f["id"], "container.no_gpu") << gpus.out;
}

// Binary, NUL bytes, invalid UTF-8 and a 20 MB line without a newline: a clear answer, no crash.
TEST_F(ExplainCommand, BinaryAndHugeLinesGetAClearAnswer) {
  std::string junk("\0\xff\xfe\x80garbage\0\n", 13);
  junk += std::string(20u << 20, 'x');
  Result r = run("explain --json < " + write_file("explain_junk.bin", junk));
  EXPECT_EQ(r.status, 3) << r.out.substr(0, 400);
  EXPECT_EQ(nlohmann::json::parse(r.out).at("outcome"), "unrecognised");
  std::string dump_after_junk = junk + "\nPyTorch version: 2.4.0+cpu\n";
  Result d = run("explain --json < " + write_file("explain_junk_dump.bin", dump_after_junk));
  auto j = nlohmann::json::parse(d.out);
  ASSERT_FALSE(j.at("findings").empty()) << d.out.substr(0, 400);
  EXPECT_EQ(j["findings"][0]["id"], "torch.cpu_only_build");
}

TEST_F(ExplainCommand, UnreadableFileIsAUsageError) {
  EXPECT_EQ(run("explain " + ::testing::TempDir() + "/no-such-file.log").status, 2);
  EXPECT_EQ(run("explain " + ::testing::TempDir()).status, 2) << "a directory is not a log";
}

}  // namespace
}  // namespace gpudoctor::cli
