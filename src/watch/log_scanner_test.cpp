#include <watch/log_scanner.hpp>

#include <random>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpudoctor::watch {
namespace {

constexpr std::string_view k_oom =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 7.79 GiB "
    "of which 11.38 MiB is free. Including non-PyTorch memory, this process has 7.77 GiB memory in use.";
constexpr std::string_view k_cudnn = "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED";

std::vector<facts::Finding> scan(std::string_view text) {
  LogScanner s;
  s.feed(text);
  s.finish();
  return s.findings();
}

std::vector<std::string> ids(const std::vector<facts::Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.push_back(f.id);
  return out;
}

std::string training_lines(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += "Epoch 1/3: step " + std::to_string(i) + " loss=0.4127 lr=3.0e-04 it/s=11.2\n";
  }
  return out;
}

TEST(LogScanner, OutOfMemoryComesBeforeTheCudnnErrorItCaused) {
  // The cuDNN error is printed first (it is the exception that escaped); the OOM explains it.
  std::string log = "step 1\n" + std::string(k_cudnn) + "\nTraceback (most recent call last):\n" + std::string(k_oom) + "\n";
  auto f = scan(log);
  ASSERT_EQ(ids(f), (std::vector<std::string>{"log.cuda_oom", "log.cudnn_status"}));
  EXPECT_TRUE(f[0].explained_by.empty());
  EXPECT_EQ(f[1].explained_by, (std::vector<std::string>{"log.cuda_oom"}));
  EXPECT_EQ(f[0].severity, facts::Severity::error);
  EXPECT_EQ(f[0].layer, facts::Layer::run);
  EXPECT_EQ(f[0].docs, facts::docs_anchor("log.cuda_oom"));
}

TEST(LogScanner, WithoutTheExplainingMessageTheOrderIsByRank) {
  // A framework-layer arch warning (rank 22) leads a code-layer device mismatch (30) printed first.
  auto f = scan("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!\n"
                "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n");
  ASSERT_EQ(ids(f), (std::vector<std::string>{"log.arch_not_compatible", "log.device_mismatch"}));
  EXPECT_TRUE(f[1].explained_by.empty());
}

// Messages as people paste them: a title without its final period, a paraphrase, and the runtimes
// beyond torch (vLLM, MXNet, JAX plugins, ONNX Runtime on Windows, nccl-tests, ollama).
TEST(LogScanner, BareCudaErrorCodesAndNamesAreReadThroughTheirMeaning) {
  EXPECT_EQ(ids(scan("[2024-03-15 10:30:10] CUDA error: error code 34\n")).front(), "log.stub_libcuda");
  EXPECT_EQ(ids(scan("cuda error code: 999\n")).front(), "log.cuda_unknown_error");
  EXPECT_EQ(ids(scan("[ERROR]: cudaErrorUnknown: unknown error\n")).front(), "log.cuda_unknown_error");
  EXPECT_EQ(ids(scan("nvidia-container-cli: initialization error: cuda error: unknown error\n")).front(),
            "log.cuda_unknown_error");
  EXPECT_EQ(ids(scan("CUDA error: error code 100\n")).front(), "log.cuda_visible_devices_none");
  EXPECT_EQ(ids(scan("Unable to query number of CUDA devices! Is an nVidia driver installed?\n")).front(),
            "log.driver_too_old");
  // A code with other digits around it is not one of these.
  EXPECT_TRUE(scan("CUDA error: error code 3400 at step 12\n").empty() ||
              ids(scan("CUDA error: error code 3400 at step 12\n")).front() != "log.stub_libcuda");
}

TEST(LogScanner, AnArchitectureTheToolkitDroppedIsToldFromOneItDoesNotKnowYet) {
  EXPECT_EQ(ids(scan("nvcc fatal   : Unsupported gpu architecture 'compute_30'\n")).front(), "log.arch_dropped_by_toolkit");
  EXPECT_EQ(ids(scan("nvcc fatal   : Unsupported gpu architecture 'compute_86'\n")).front(), "log.arch_not_compatible");
  EXPECT_EQ(ids(scan("-- CUDA_CUDA_LIBRARY (ADVANCED)\n")).front(), "log.libcuda_not_found");
}

TEST(LogScanner, MessagesOfOtherRuntimesAndTitleFragments) {
  EXPECT_EQ(ids(scan("Titel: No GPU/TPU found, falling back to CPU\n")), std::vector<std::string>{"log.jax_cpu_fallback"});
  EXPECT_EQ(ids(scan("jax 0.4.1 does not provide the extra 'cuda11_pip'\n")).front(), "log.jax_extra_missing");
  auto vllm = scan("Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Quadro RTX 8000 GPU "
                   "has compute capability 7.5.\nRuntimeError: GPUs with compute capability below 7.0 are not supported.\n");
  ASSERT_EQ(ids(vllm), (std::vector<std::string>{"log.vllm_arch_unsupported", "log.bf16_unsupported"}));
  EXPECT_NE(vllm[1].message.find("Quadro RTX 8000 has compute capability 7.5"), std::string::npos);
  EXPECT_EQ(ids(scan("[12:00:01] src/storage/storage.cc:43: Please compile with CUDA enabled\n")),
            std::vector<std::string>{"log.mxnet_cpu_build"});
  EXPECT_EQ(ids(scan("JAX plugin jax_cuda12_plugin version 0.5.1 is installed, but it is not compatible with the installed "
                     "jaxlib version 0.5.0, so it will not be used.\nNo GPU/TPU found, falling back to CPU.\n")),
            (std::vector<std::string>{"log.jax_plugin_mismatch", "log.jax_cpu_fallback"}));
  EXPECT_EQ(ids(scan("CUDA_PATH is set but CUDA wasnt able to be loaded. Please install the correct version\n")),
            std::vector<std::string>{"log.ort_cuda_provider_failed"});
  EXPECT_EQ(ids(scan("host:7:7 [0] NCCL WARN Socket creation failed : Address family not supported by protocol\n"
                     "host: Test NCCL failure common.cu:100 'unhandled system error'\n")),
            (std::vector<std::string>{"log.nccl_no_network_interface", "log.nccl_error"}));
  EXPECT_EQ(ids(scan("Error: llama runner process has terminated: exit status 0xc0000139\n")),
            std::vector<std::string>{"log.driver_too_old"});
  EXPECT_EQ(ids(scan("it said the nvidia driver is too old\n")), std::vector<std::string>{"log.driver_too_old"});
  EXPECT_EQ(ids(scan("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
                     "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service\n")),
            std::vector<std::string>{"log.no_nvidia_driver"});
  EXPECT_EQ(ids(scan("modprobe: FATAL: Module nvidia_uvm not found in directory /lib/modules/6.8.0-31-generic\n")),
            std::vector<std::string>{"log.no_nvidia_driver"});
  EXPECT_EQ(ids(scan("01:00.0 VGA compatible controller: NVIDIA Corporation AD104\n\tKernel driver in use: nouveau\n"
                     "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n")),
            (std::vector<std::string>{"log.nouveau_bound", "log.no_nvidia_driver"}));
  EXPECT_EQ(ids(scan("[    3.1] nouveau 0000:2d:00.0: bus: MMIO read of 00000000 FAULT\n")), std::vector<std::string>{"log.nouveau_bound"});
  EXPECT_EQ(ids(scan("Error response from daemon: Unknown runtime specified nvidia\n")),
            std::vector<std::string>{"log.docker_no_gpu_runtime"});
}

// Posts copied through a word processor or a web page carry curly quotes and no-break spaces that
// the program never printed; a bare "Illegal instruction" (no core dump note) is the SIGILL message.
TEST(LogScanner, TheCauseBehindAGenericLoadFailureComesFirst) {
  // jaxlib without the GPU allocator is the CPU build: not a release mismatch of jax and jaxlib.
  EXPECT_EQ(ids(scan("Unable to initialize backend 'cuda': module 'jaxlib.xla_extension' has no attribute "
                     "'GpuAllocatorConfig'\nNo GPU/TPU found, falling back to CPU.\n")),
            (std::vector<std::string>{"log.jaxlib_cpu_only", "log.jax_plugin_mismatch", "log.jax_cpu_fallback"}));
  EXPECT_EQ(ids(scan("AttributeError: module 'jaxlib.xla_extension' has no attribute 'ifrt_programs'\n")),
            std::vector<std::string>{"log.jax_plugin_mismatch"});
  // Typed with another case, as posts do.
  EXPECT_EQ(ids(scan("Loadlibrary failed with error 126 when trying to load onnxruntime_providers_cuda.dll\n")),
            std::vector<std::string>{"log.ort_cuda_provider_failed"});
  EXPECT_EQ(ids(scan("java.lang.UnsatisfiedLinkError: Error while loading native library \"JCublas2-0.8.0-windows-x86_64\"\n")),
            std::vector<std::string>{"log.jcuda_native_library_failed"});
  // The program in the container got --gpus; Docker's own CLI says it without "Error: ".
  EXPECT_EQ(ids(scan("Error: unknown flag: --gpus\n")), std::vector<std::string>{"log.gpus_flag_given_to_program"});
  EXPECT_TRUE(scan("unknown flag: --gpus\nSee 'docker run --help'.\n").empty());
  EXPECT_EQ(ids(scan("Torch built without cuda support\n")), std::vector<std::string>{"log.torch_not_compiled_with_cuda"});
  EXPECT_TRUE(scan("torchvision built without cuda support\n").empty()) << "another package";
  EXPECT_EQ(ids(scan("Error after installation - Nvidia kernel module missing\n")),
            std::vector<std::string>{"log.no_nvidia_driver"});
  EXPECT_EQ(ids(scan("kernel version 515.48.7 does not match DSO version 510.73.5 -- cannot find working devices\n")),
            std::vector<std::string>{"log.nvml_version_mismatch"});
  EXPECT_EQ(ids(scan("llm_load_tensors: offloaded 0/41 layers to GPU\n")), std::vector<std::string>{"log.llama_no_gpu_layers"});
  EXPECT_TRUE(scan("llm_load_tensors: offloaded 41/41 layers to GPU\n").empty());
  EXPECT_EQ(ids(scan("2020/10/14 18:04:53 If this is a GPU node, did you set the docker default runtime to `nvidia`?\n")),
            std::vector<std::string>{"log.k8s_device_plugin_no_nvml"});
  // cudaErrorDevicesUnavailable, as PyTorch prints it, and its name.
  EXPECT_EQ(ids(scan("RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable\n")),
            std::vector<std::string>{"log.cuda_devices_unavailable"});
  EXPECT_EQ(ids(scan("cudaGetDeviceCount returned cudaErrorDevicesUnavailable\n")),
            std::vector<std::string>{"log.cuda_devices_unavailable"});
  // NVML's mismatch as a container runtime logs it.
  EXPECT_EQ(ids(scan("nvidia-docker | 2017/12/21 05:04:46 Error: nvml: Driver/library version mismatch\n")),
            std::vector<std::string>{"log.nvml_version_mismatch"});
  // Any library's own "not compiled with CUDA"; PyTorch's stays PyTorch's.
  EXPECT_EQ(ids(scan("RuntimeError: This CTranslate2 package was not compiled with CUDA support\n")),
            std::vector<std::string>{"log.library_built_without_cuda"});
  EXPECT_EQ(ids(scan("RuntimeError: nms is not compiled with GPU support\n")),
            std::vector<std::string>{"log.library_built_without_cuda"});
  EXPECT_EQ(ids(scan(">>> dlib.DLIB_USE_CUDA\nFalse\n")).size(), 0U) << "the value on its own line is not read";
  EXPECT_EQ(ids(scan("dlib.DLIB_USE_CUDA = False\n")), std::vector<std::string>{"log.library_built_without_cuda"});
  EXPECT_EQ(ids(scan("AssertionError: torch is not compiled with CUDA\n")),
            std::vector<std::string>{"log.torch_not_compiled_with_cuda"});
  EXPECT_EQ(ids(scan("msg=\"skipping available library at users request\" requested=cuda libDir=/usr/lib/ollama/cuda_v12\n")),
            std::vector<std::string>{"log.ollama_library_skipped"});
}

TEST(LogScanner, PastedTypographyAndABareIllegalInstruction) {
  EXPECT_EQ(ids(scan("NVIDIA-SMI has failed because it couldn\xe2\x80\x99t communicate with the NVIDIA\xc2\xa0" "driver. "
                     "Make sure that the latest NVIDIA driver is installed and running.\n")),
            std::vector<std::string>{"log.no_nvidia_driver"});
  EXPECT_EQ(ids(scan("$ python -c 'import tensorflow'\nIllegal instruction\n")),
            std::vector<std::string>{"log.cpu_instructions_missing"});
  EXPECT_EQ(ids(scan("Process finished with exit code 132 (interrupted by signal 4: SIGILL)\n")),
            std::vector<std::string>{"log.cpu_instructions_missing"});
}

TEST(LogScanner, MessageAndFixUseTheCapturedParts) {
  auto f = scan(std::string(k_oom) + "\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("20.00 MiB"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("GPU 0"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("11.38 MiB of 7.79 GiB"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].fix.find("expandable_segments"), std::string::npos);
}

TEST(LogScanner, CapturesFromSeveralLinesOfOneIdFillOneMessage) {
  auto f = scan(
      "/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:235: UserWarning:\n"
      "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n"
      "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "log.arch_not_compatible");
  EXPECT_NE(f[0].message.find("NVIDIA GeForce RTX 5090 (sm_120)"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].fix.find("sm_120"), std::string::npos) << f[0].fix;
  ASSERT_EQ(f[0].evidence.size(), 2u);
  EXPECT_EQ(f[0].evidence[0].rfind("line 2: NVIDIA GeForce RTX 5090", 0), 0u) << f[0].evidence[0];
  EXPECT_EQ(f[0].evidence[1].rfind("line 3: The current PyTorch", 0), 0u) << f[0].evidence[1];
}

TEST(LogScanner, RepeatedMessagesBecomeOneFindingWithACount) {
  std::string log;
  for (int rank = 0; rank < 8; ++rank) log += "UserWarning: User provided device_type of 'cuda', but CUDA is not available. Disabling\n";
  log += "done\n";
  auto f = scan(log);
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(f[0].evidence.size(), 1u);
  EXPECT_EQ(f[0].evidence[0],
            "line 1: UserWarning: User provided device_type of 'cuda', but CUDA is not available. Disabling "
            "(repeated 8 times, last at line 8)");
}

TEST(LogScanner, DistinctLinesBeyondTheEvidenceLimitAreCounted) {
  std::string log;
  for (int i = 0; i < 5; ++i) {
    log += "[rank" + std::to_string(i) + "]: RuntimeError: CUDA error: device-side assert triggered\n";
  }
  auto f = scan(log);
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(f[0].evidence.size(), k_max_evidence_lines + 1);
  EXPECT_EQ(f[0].evidence.back(), "2 more matching lines");
}

TEST(LogScanner, SplittingTheInputAnywhereGivesTheSameFindings) {
  std::string log = training_lines(3000) + std::string(k_cudnn) + "\n" + training_lines(500) + std::string(k_oom) +
                    "\nFound no NVIDIA driver on your system. Please check that you have an NVIDIA GPU\n" +
                    training_lines(10) + "RuntimeError: No CUDA GPUs are available";  // no final newline
  auto whole = scan(log);
  ASSERT_EQ(whole.size(), 4u);
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    LogScanner s;
    std::size_t at = 0;
    while (at < log.size()) {
      std::size_t n = std::uniform_int_distribution<std::size_t>(0, round < 10 ? 3 : 70000)(rng);
      n = std::min(n, log.size() - at);
      s.feed(std::string_view(log).substr(at, n));
      at += n;
    }
    s.finish();
    EXPECT_EQ(s.findings(), whole) << "round " << round;
    EXPECT_EQ(s.lines_seen(), 3000u + 1 + 500 + 1 + 1 + 10 + 1);
  }
}

TEST(LogScanner, LineNumbersHoldAcrossBlocks) {
  std::string log = training_lines(20000) + std::string(k_oom) + "\n";
  auto f = scan(log);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].evidence[0].rfind("line 20001: ", 0), 0u) << f[0].evidence[0];
}

TEST(LogScanner, CarriageReturnEndsAProgressBarLineForMatching) {
  auto f = scan("train:  10%|#         |\rtrain:  50%|#####     |\rRuntimeError: CUDA error: out of memory\nnext\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "log.cuda_oom");
  EXPECT_EQ(f[0].evidence[0], "line 1: RuntimeError: CUDA error: out of memory");
}

TEST(LogScanner, CallbackSeesEachMatchAsItsLineCompletes) {
  LogScanner s;
  std::vector<std::pair<std::string, std::uint64_t>> seen;
  s.set_on_match([&](const LogMatch& m) { seen.emplace_back(m.signature->id, m.line_number); });
  s.feed("ok\nRuntimeError: CUDA error: no kernel image is available for exec");
  EXPECT_TRUE(seen.empty()) << "the line is not complete yet";
  s.feed("ution on the device\n");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], (std::pair<std::string, std::uint64_t>{"log.no_kernel_image", 2}));
}

TEST(LogScanner, InfoOnlyLogHasNoErrorFinding) {
  auto f = scan("2024-05-01 10:00:01.234567: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: "
                "Could not find TensorRT\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, facts::Severity::info);
  EXPECT_TRUE(scan("").empty());
  EXPECT_TRUE(scan(training_lines(100)).empty());
}

TEST(LogScanner, NulBytesAndInvalidUtf8AreJustBytes) {
  const char k_nul[] = "RuntimeError: CUDA error: out\0of memory\n";
  std::string nul(k_nul, sizeof(k_nul) - 1);
  EXPECT_TRUE(scan(nul).empty()) << "a NUL inside the message breaks it";
  std::string bad = "\xff\xfe\xc3 RuntimeError: CUDA error: out of memory \xe2\x28\xa1 \x80\n";
  bad += std::string("\0\0\0\xff\n", 5);
  auto f = scan(bad);
  ASSERT_EQ(f.size(), 1u);
  nlohmann::json j = f[0].evidence;
  EXPECT_NO_THROW((void)j.dump()) << "evidence must be valid UTF-8 for JSON";
}

TEST(LogScanner, HundredMegabyteLineIsScannedInBoundedMemory) {
  LogScanner s;
  std::string chunk(1 << 20, 'x');
  s.feed("RuntimeError: CUDA error: out of memory ");  // the start of one enormous line
  for (int i = 0; i < 100; ++i) s.feed(chunk);
  s.feed(" tail\nRuntimeError: CUDA error: invalid device ordinal\n");
  s.finish();
  auto f = s.findings();
  EXPECT_EQ(ids(f), (std::vector<std::string>{"log.cuda_oom", "log.invalid_device_ordinal"}));
  EXPECT_EQ(s.lines_seen(), 2u);
  for (const auto& finding : f) {
    for (const auto& e : finding.evidence) EXPECT_LE(e.size(), k_evidence_line_bytes + 100);
  }
  // The same line handed over in one piece.
  std::string huge = "RuntimeError: CUDA error: out of memory " + std::string(100u << 20, 'y') + "\n";
  EXPECT_EQ(ids(scan(huge)), (std::vector<std::string>{"log.cuda_oom"}));
}

}  // namespace
}  // namespace gpudoctor::watch
