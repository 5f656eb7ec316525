// A post that states only its symptom gets the cause most often behind it, said as likely, with
// what it rests on; never when the text shows that cause cannot be it, never without a symptom.
#include <cli/explain_likely.hpp>

#include <gtest/gtest.h>

#include <probe/text/report_reader.hpp>
#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

// The facts the report readers read from `text`, as explain computes them.
facts::Facts described(std::string_view text) {
  probe::text::ReportReader reader;
  std::size_t n = 0;
  for (auto line : util::lines(text)) reader.feed_line(line, ++n);
  return reader.facts();
}

std::string likely_id(std::string_view text) {
  auto f = likely_cause(text, described(text));
  return f ? f->id : "";
}

TEST(ExplainLikely, SymptomInEachLanguageNamesTheFrameworksCommonCause) {
  EXPECT_EQ(likely_id("torch.cuda.is_available() returns False on my laptop"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("Не используется gpu"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("Whisper does not invoke the GPU; it uses the CPU instead"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("PyTorch 训练时检测不到GPU"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("pytorchでGPUが使われない"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("파이토치에서 GPU를 사용하지 않습니다"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("PyTorch no usa la GPU"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("JAX only uses the CPU"), "jax.cpu_only");
  EXPECT_EQ(likely_id("paddle 不使用 GPU"), "paddle.cpu_only_build");
  EXPECT_EQ(likely_id("onnxruntime: CUDAExecutionProvider not available"), "ort.cpu_package_shadows_gpu");
  EXPECT_EQ(likely_id("onnxruntime on Colab: the provider list only shows ['CPUExecutionProvider']"),
            "ort.cpu_package_shadows_gpu");
  EXPECT_EQ(likely_id("llama-cpp-python: no GPU offload, n_gpu_layers ignored"), "llama.built_without_cuda");
  EXPECT_EQ(likely_id("tensorflow does not use the GPU in WSL"), "tf.missing_gpu_libs");
  EXPECT_EQ(likely_id("Windows 11, tensorflow 2.15: GPU not detected"), "tf.windows_native_no_gpu");
  // collect_env's own line says it.
  EXPECT_EQ(likely_id("Is debug build: False\nIs CUDA available: False\n"), "torch.cpu_only_build");
  // Typed without the apostrophe, or as "cannot be": still the symptom.
  EXPECT_EQ(likely_id("pytorch: the GPU isnt recognized"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("pytorch: GPU cannot be recognized"), "torch.cpu_only_build");
  // A torch that was installed as the CPU build, said in Chinese.
  EXPECT_EQ(likely_id("按 requirements 安装时 torch 自动装成了 CPU 版本"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("pytorch 是 CPU 版本吗"), "torch.cpu_only_build");
  // What Lightning and torch.utils.cpp_extension print when torch sees no GPU.
  EXPECT_EQ(likely_id("MisconfigurationException: GPUs requested but none are available."), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'"), "torch.cpu_only_build");
}

TEST(ExplainLikely, CuInitWithoutADeviceUnderWslIsALibcudaOtherThanWsls) {
  const facts::Facts none;
  auto wsl = situation_cause(
      "Windows 11, WSL2: nvidia-smi shows the GPU\n"
      "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in "
      "CUDA_ERROR_NO_DEVICE (100)\n",
      none);
  ASSERT_TRUE(wsl.has_value());
  EXPECT_EQ(wsl->id, "wsl.linux_driver_installed");
  EXPECT_NE(wsl->fix.find("/usr/lib/wsl/lib"), std::string::npos);
  // The same message on a Linux machine is not about WSL's libcuda.
  auto native = situation_cause("Ubuntu 22.04\nCall to cuInit results in CUDA_ERROR_NO_DEVICE (100)\n", none);
  EXPECT_TRUE(!native.has_value() || native->id != "wsl.linux_driver_installed");
}

TEST(ExplainLikely, ADockerPostWhoseGpuIsNotRecognisedWasStartedWithoutIt) {
  EXPECT_EQ(likely_id("Gpu isnt recognized after install . Docker ."), "container.no_gpu");
  EXPECT_NE(likely_id("Gpu isnt recognized after install on Ubuntu"), "container.no_gpu") << "no container named";
}

TEST(ExplainLikely, OllamaWithAGpuOlderThanItsBuildsIsNamed) {
  EXPECT_EQ(likely_id("Ollama can't find my 4 Tesla K80 GPUs and uses the CPU.\nOllama version: 0.5.11"),
            "ollama.arch_unsupported");
  // 0.1.16-0.1.21 were built for 6.0 and newer only.
  EXPECT_EQ(likely_id("CUDA error 999 after updating Ollama to v0.1.19 on a GeForce GTX 950M"), "ollama.arch_unsupported");
  EXPECT_NE(likely_id("CUDA error 999 after updating Ollama to v0.3.1 on a GeForce GTX 950M"), "ollama.arch_unsupported");
  EXPECT_NE(likely_id("Ollama uses the CPU on my RTX 3060"), "ollama.arch_unsupported");
}

TEST(ExplainLikely, AWindowsPreviewBuildThatBrokeGpuComputeIsNamed) {
  EXPECT_EQ(likely_id("After updating to Windows 10 preview build 21354 the /dev/dxg device is gone in WSL2"),
            "wsl.host_build_gpu_regression");
  EXPECT_EQ(likely_id("RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable\nwindows: 20231.1005"),
            "wsl.host_build_gpu_regression");
  // A released build is no preview; a preview build without a failing GPU is no cause.
  EXPECT_NE(likely_id("Microsoft Windows [Version 10.0.22631.4169]\nNVIDIA-SMI has failed in WSL"),
            "wsl.host_build_gpu_regression");
  EXPECT_NE(likely_id("Microsoft Windows [Version 10.0.21354.1000]\nHow do I install Ubuntu?"),
            "wsl.host_build_gpu_regression");
}

TEST(ExplainLikely, OnnxRuntimeGpuAloneMostOftenLacksItsCudaLibraries) {
  EXPECT_EQ(likely_id("It only uses the CPU.\nonnxruntime-gpu==1.9.0\ninsightface==0.5"), "ort.cuda_provider_libs_missing");
  // The CPU package beside it (or alone) is the common cause then.
  EXPECT_EQ(likely_id("It only uses the CPU.\nonnxruntime-gpu==1.9.0\nonnxruntime==1.9.0"), "ort.cpu_package_shadows_gpu");
  EXPECT_EQ(likely_id("Runs on CPU: the venv has plain onnxruntime, not onnxruntime-gpu"), "ort.cpu_package_shadows_gpu");
}

TEST(ExplainLikely, WindowsHostContainerWithNamedSymbolNotFoundNeedsANewerToolkit) {
  EXPECT_EQ(likely_id("Docker Desktop on WSL2, tensorflow image:\nfailed call to cuInit: CUDA_ERROR_NOT_FOUND: named symbol "
                      "not found"),
            "wsl.container_toolkit_too_old_for_windows_driver");
  EXPECT_NE(likely_id("Error: Cuda(Load { cuda: DriverError(CUDA_ERROR_NOT_FOUND, \"named symbol not found\") })"),
            "wsl.container_toolkit_too_old_for_windows_driver")
      << "no Windows host: a library's own kernel name";
}

TEST(ExplainLikely, LlamaCppOutOfMemoryUnderWslIsThePinnedMemoryLimit) {
  EXPECT_EQ(likely_id("WSL: llama.cpp\nCUDA error 2 at ggml-cuda.cu:359: out of memory"), "wsl.pinned_memory_limited");
  EXPECT_NE(likely_id("Ubuntu: llama.cpp\nCUDA error 2 at ggml-cuda.cu:359: out of memory"), "wsl.pinned_memory_limited");
}

TEST(ExplainLikely, AVisibleDeviceIndexPastTheOnlyGpuIsNamed) {
  EXPECT_EQ(likely_id("On a single GPU machine the scripts train on the CPU.\nexport CUDA_VISIBLE_DEVICES=1"),
            "env.cuda_visible_devices_invalid");
  EXPECT_NE(likely_id("Training on the CPU.\nexport CUDA_VISIBLE_DEVICES=1"), "env.cuda_visible_devices_invalid")
      << "how many GPUs the machine has is not said";
  EXPECT_NE(likely_id("On a single GPU machine it trains on the CPU.\nexport CUDA_VISIBLE_DEVICES=0"),
            "env.cuda_visible_devices_invalid");
}

TEST(ExplainLikely, AKubernetesNodeWithNoGpuResourceLacksTheNvidiaRuntime) {
  EXPECT_EQ(likely_id("After upgrading K8s the GPU nodes show no GPU\n# kubectl describe node | grep -i gpu\n"
                      " nvidia.com/gpu:     0\n"),
            "container.k8s_default_runtime_not_nvidia");
  EXPECT_NE(likely_id("kubectl describe node\n nvidia.com/gpu:     4\nthe pod does not use the GPU"),
            "container.k8s_default_runtime_not_nvidia");
}

TEST(ExplainLikely, AGpuInTccModeUnderWslIsNamed) {
  EXPECT_EQ(likely_id("WSL/CUDA unsupported on H100\nThe card runs only in TCC mode; nvidia-smi will not switch it"),
            "wsl.gpu_in_tcc_mode");
  EXPECT_NE(likely_id("Windows 11: CUDA does not see my H100, which is in TCC mode"), "wsl.gpu_in_tcc_mode")
      << "no WSL named: TCC is the right mode for CUDA on native Windows";
  EXPECT_NE(likely_id("WSL2: torch.cuda.is_available() is False, the TCCL library is installed"), "wsl.gpu_in_tcc_mode")
      << "TCC as part of another word is not the driver model";
}

TEST(ExplainLikely, ALinuxDriverInstalledInsideWslIsNamed) {
  EXPECT_EQ(likely_id("On WSL2 I ran sudo apt install nvidia-driver-535 and now nvidia-smi fails"),
            "wsl.linux_driver_installed");
  EXPECT_EQ(likely_id("Installed GPU driver in wsl by mistake, how to recover?"), "wsl.linux_driver_installed");
  // The same command on a Linux machine is no WSL mistake.
  EXPECT_NE(likely_id("Ubuntu 22.04: sudo apt install nvidia-driver-535, torch.cuda.is_available() returns False"),
            "wsl.linux_driver_installed");
}

TEST(ExplainLikely, AContainerThatLostItsGpuAfterAWhile) {
  EXPECT_EQ(likely_id("Ollama in Docker uses the GPU at first, but after it has been idle for a while it runs on the CPU"),
            "container.systemd_cgroup_device_loss");
  EXPECT_NE(likely_id("Ollama runs on the CPU after a while"), "container.systemd_cgroup_device_loss");  // no container
}

std::string situation_id(std::string_view text) {
  auto f = situation_cause(text, described(text));
  return f ? f->id : "";
}

TEST(ExplainLikely, AContainerThatShowsNoGpuInsideWasStartedWithoutIt) {
  EXPECT_EQ(situation_id("在容器里执行 `nvidia-smi` 提示 command not found"), "container.no_gpu");
  EXPECT_EQ(situation_id("Ollama in podman runs on the CPU\npodman inspect ollama shows: Devices: []"), "container.no_gpu");
  EXPECT_EQ(situation_id("vllm-openai image in k3s: RuntimeError: Failed to infer device type"), "container.no_gpu");
  // nvidia-smi missing on a machine that is not a container is not this.
  EXPECT_EQ(situation_id("Ubuntu 22.04: nvidia-smi: command not found after installing CUDA"), "");
  // A symptom alone inside a container: the GPU was most likely never passed in.
  EXPECT_EQ(likely_id("Running the image with docker, torch.cuda.is_available() returns False"), "container.no_gpu");
  // Not when the run command is shown: the checks read it.
  EXPECT_NE(likely_id("$ docker run --gpus all img python t.py\ntorch.cuda.is_available() returns False"),
            "container.no_gpu");
}

TEST(ExplainLikely, DxcoreFailingInsideWslMeansWindowsGivesItNoGpu) {
  const std::string_view debug =
      "I0828 18:43:18.664828 4993 nvc.c:389] attempting to load dxcore to see if we are running under Windows "
      "Subsystem for Linux (WSL)\n"
      "I0828 18:43:18.664969 4993 nvc.c:391] dxcore initialization failed, continuing assuming a non-WSL environment\n";
  EXPECT_EQ(situation_id(std::string("Ubuntu 20.04 under WSL2: nvidia-container-cli info fails\n") + std::string(debug)),
            "wsl.no_gpu_support");
  // nvidia-container-cli says so on every Linux machine: its own mention of WSL makes no post about WSL.
  EXPECT_EQ(situation_id(std::string("Ubuntu 22.04 server, docker --gpus all fails\n") + std::string(debug)), "");
}

TEST(ExplainLikely, ACudaLibraryFailingToLoadInsideWslIsTheLoaderPath) {
  EXPECT_EQ(situation_id("Ubuntu 22.04 on WSL2, Windows 11\nCould not load library libcudnn_cnn_infer.so.8"),
            "log.libcuda_not_found");
  EXPECT_EQ(situation_id("Works on Windows, fails under WSL:\nUserWarning: /home/u/env did not contain libcudart.so as "
                         "expected! Searching further paths..."),
            "log.libcuda_not_found");
  // The same failure on a Linux machine has other causes (a missing cuDNN, a CPU build).
  EXPECT_EQ(situation_id("Ubuntu 22.04 server\nCould not load library libcudnn_cnn_infer.so.8"), "");
  // WSL with no library failing to load is not this.
  EXPECT_EQ(situation_id("WSL2: torch.cuda.is_available() returns False"), "");
}

TEST(ExplainLikely, ADriverThatFailsAfterAKernelUpgradeLacksItsModule) {
  EXPECT_EQ(situation_id("After every kernel upgrade I have to run sudo dkms install nvidia/390.48 by hand"),
            "driver.module_not_loaded");
  EXPECT_EQ(situation_id("nvidia-smi: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n"
                         "It worked until the kernel was upgraded to 6.8.0-45"),
            "driver.module_not_loaded");
  // A kernel upgrade with no NVIDIA driver in the text, or inside WSL (no module there), is not this.
  EXPECT_EQ(situation_id("After a kernel update my wifi stopped working"), "");
  EXPECT_EQ(situation_id("WSL2 after a kernel update: nvidia-smi not found"), "");
}

TEST(ExplainLikely, NoDriverLibraryInAContainerMeansItGotNoGpu) {
  EXPECT_EQ(situation_id("docker compose up\nerror while loading shared libraries: libcuda.so.1: cannot open shared "
                         "object file: No such file or directory"),
            "container.no_gpu");
  // A container given the GPU without the compute capability lacks libcuda.so.1 too: not this.
  EXPECT_EQ(situation_id("docker: capabilities: [gpu, utility]\nImportError: libcuda.so.1: cannot open shared object "
                         "file"),
            "");
  EXPECT_EQ(situation_id("Ubuntu 22.04: ImportError: libcuda.so.1: cannot open shared object file"), "");
}

TEST(ExplainLikely, AGpuNewerThanTheStatedCudaHasNoKernelsInAFrameworkBuiltWithIt) {
  EXPECT_EQ(situation_id("显卡是 RTX 3070，paddlepaddle-gpu 运行模型出错\nCUDA 装的是 10.0 版本"), "log.arch_not_compatible");
  EXPECT_EQ(situation_id("tensorflow 1.15 on an RTX 3090 with CUDA 10.0: GPU not used"), "log.arch_not_compatible");
  // A CUDA that covers the GPU, or PyTorch (its wheels bring their own CUDA): not this.
  EXPECT_EQ(situation_id("paddle on an RTX 3070 with CUDA 11.2"), "");
  EXPECT_EQ(situation_id("pytorch on an RTX 3070 with CUDA 10.0 installed"), "");
}

TEST(ExplainLikely, OllamaWithAContextTooLargeForTheGpuRunsOnTheCpu) {
  EXPECT_EQ(situation_id("ollama in docker on a T4\nPARAMETER num_ctx 131072\n`ollama ps` shows the processor as 100% CPU"),
            "ollama.context_exceeds_vram");
  EXPECT_EQ(situation_id("num_ctx forces entire model to CPU\nwith 128000 `ollama ps` shows it on the CPU; ollama 0.3"),
            "");  // no number next to the setting: not read as one
  EXPECT_EQ(situation_id("Ollama: with num_ctx set to 40,000 the model runs on the CPU"), "ollama.context_exceeds_vram");
  // A small context, or a large one on the GPU: not this.
  EXPECT_EQ(situation_id("ollama with num_ctx 8192 runs 100% CPU"), "");
  EXPECT_EQ(situation_id("ollama with num_ctx 32768 shows 100% GPU"), "");
}

TEST(ExplainLikely, SecureBootOnWithADriverThatFailsRefusesTheModule) {
  EXPECT_EQ(situation_id("Extension is not successfully installed when secure boot is ON."), "driver.module_not_loaded");
  EXPECT_EQ(situation_id("$ mokutil --sb-state\nSecureBoot enabled\nnvidia-smi fails after installing 535"),
            "driver.module_not_loaded");
  // Secure Boot said to be off, or on with nothing failing, or inside WSL: not this.
  EXPECT_EQ(situation_id("Secure boot is disabled, nvidia-smi fails"), "");
  EXPECT_EQ(situation_id("Secure Boot is on and everything works"), "");
  EXPECT_EQ(situation_id("WSL2 on Windows 11 with Secure Boot enabled: CUDA error"), "");
}

TEST(ExplainLikely, MemoryThatStaysTakenAfterTheProgramStoppedIsHeldByAProcess) {
  EXPECT_EQ(situation_id("gpu memory not released after run `sudo kill 4242`"), "gpu.memory_held_by_others");
  EXPECT_EQ(situation_id("After I stop the training with Ctrl-C the GPU memory is still shown as used"),
            "gpu.memory_held_by_others");
  // The caching allocator keeping memory inside a running program is not another process.
  EXPECT_EQ(situation_id("after del tensor the GPU memory is still allocated in my notebook"), "");
  EXPECT_EQ(situation_id("The job was killed by the OOM killer"), "");
  EXPECT_EQ(situation_id("About 6 GB of memory is taken although no process is listed in nvidia-smi"),
            "gpu.memory_held_by_others");
}

TEST(ExplainLikely, TensorFlowThatCannotFindACudaLibraryLacksItsGpuLibraries) {
  EXPECT_EQ(situation_id("Tensorflow GPU library Libcudart.so.11.0 not found\nTensorFlow 2.8 on Ubuntu"),
            "tf.missing_gpu_libs");
  // On Windows the answer is that TensorFlow has no GPU there at all (the checks and the prior say so).
  EXPECT_EQ(situation_id("Tensorflow 2.16 on Windows 10: libcudart.so.12 not found"), "");
  // The same words about PyTorch are no TensorFlow diagnosis.
  EXPECT_EQ(situation_id("import torch: libcudart.so.12 not found"), "");
}

TEST(ExplainLikely, AHostedNotebookWithNoDriverRunsWithoutAnAccelerator) {
  EXPECT_EQ(situation_id("My Colab notebook stopped working:\nRuntimeError: Found no NVIDIA driver on your system."),
            "hw.no_gpu");
  EXPECT_EQ(situation_id("Kaggle notebook\n!nvidia-smi\n/bin/bash: nvidia-smi: command not found"), "hw.no_gpu");
  // The same error on one's own machine is about its driver.
  EXPECT_EQ(situation_id("Ubuntu 22.04 desktop\nRuntimeError: Found no NVIDIA driver on your system."), "");
}

TEST(ExplainLikely, AnIntelOrAmdGpuAloneIsTheCause) {
  EXPECT_EQ(situation_id("no CUDA-capable device is detected\nGraphics: Intel(R) Iris Plus Graphics 650"),
            "hw.no_compute_gpu");
  EXPECT_EQ(situation_id("docker: could not select device driver \"\" with capabilities: [[gpu]]\n"
                         "Graphics Mesa Intel(R) Xe Graphics (TGL GT2)"),
            "hw.no_compute_gpu");
  EXPECT_EQ(situation_id("My Radeon RX 6700 XT: torch.cuda.is_available(): False"), "torch.cuda_build_on_amd");
  // A laptop with both: the NVIDIA GPU is the one in question.
  EXPECT_EQ(situation_id("Intel UHD Graphics 620 and a GeForce MX150; torch.cuda.is_available() returns False"), "");
  EXPECT_EQ(situation_id("Radeon integrated graphics, and nvidia-smi shows Driver Version: 535.104.05\n"
                         "torch.cuda.is_available() returns False"),
            "");
  // Naming the GPU with no symptom is no diagnosis.
  EXPECT_EQ(situation_id("How fast is training on a Radeon RX 7900 XTX?"), "");
}

TEST(ExplainLikely, AnArchitectureErrorOnAGpuFewWheelsCarryNamesTheBuild) {
  const std::string_view error = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n";
  EXPECT_TRUE(situation_explains("log.no_kernel_image"));
  // The newest architecture: only the cu128 and later wheels carry sm_120.
  auto f = situation_cause(std::string(error) + "torch on my new RTX 5090", described(error));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "torch.arch_unsupported");
  EXPECT_NE(f->message.find("sm_120"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("cu128"), std::string::npos) << f->message;
  EXPECT_EQ(f->message.find("cu124"), std::string::npos) << f->message;  // PTX of sm_90 is no kernel for it
  // A bare 50-series number names the card beside the error ("换成 5090 之后").
  EXPECT_EQ(situation_id(std::string(error) + "torch: 换成 5090 之后就出错了"), "torch.arch_unsupported");
  // A common architecture points elsewhere (a custom extension); another framework is not torch's wheels.
  EXPECT_EQ(situation_id(std::string(error) + "torch on an RTX 3090"), "");
  EXPECT_EQ(situation_id(std::string(error) + "paddle on an RTX 5090"), "");
  // No architecture error: the card alone says nothing.
  EXPECT_EQ(situation_id("torch on my new RTX 5090 is fast"), "");
  // A bare number without the error is no card.
  EXPECT_EQ(situation_id("torch uses port 5090"), "");
}

TEST(ExplainLikely, SaysWhatItRestsOnAndAtWhichLine) {
  auto f = likely_cause("Title\n\nmodel not using the GPU\n", facts::Facts{});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, facts::Severity::info);  // a guess, not a finding
  EXPECT_NE(f->message.find("A guess from the symptom alone"), std::string::npos) << f->message;
  ASSERT_GE(f->evidence.size(), 2u);
  EXPECT_EQ(f->evidence[0], "line 3: model not using the GPU");
  EXPECT_NE(f->evidence[1].find("rests on"), std::string::npos);
  EXPECT_NE(f->fix.find("torch.version.cuda"), std::string::npos) << "the command that confirms it";
}

TEST(ExplainLikely, NothingWithoutASymptomOrForRuntimesWithNoSingleCommonCause) {
  EXPECT_EQ(likely_id("hello world"), "");
  EXPECT_EQ(likely_id("training is slow, loss is nan"), "");
  EXPECT_EQ(likely_id("ollama does not use the GPU"), "");
  EXPECT_EQ(likely_id("vllm: no CUDA GPUs found"), "");
}

TEST(ExplainLikely, AComputeCapabilityTheTextStatesBelowEveryWheelNamesTheArchitecture) {
  // GT 740M was sold with two capabilities (3.0 and 3.5); the post states which one.
  EXPECT_EQ(likely_id("GPU is GeForce GT 740M | 3.0\nit does not pick up my old card, so I can only use the CPU"),
            "torch.arch_unsupported");
  EXPECT_EQ(likely_id("my card has compute capability 3.5 and torch.cuda.is_available() returns False"),
            "torch.arch_unsupported");
  // A capability every current wheel carries says nothing.
  EXPECT_EQ(likely_id("compute capability 8.6, torch.cuda.is_available() returns False"), "torch.cpu_only_build");
}

TEST(ExplainLikely, ACudaBuildShownRulesOutTheCpuBuild) {
  // The version says it is a CUDA build: not a CPU-only build, and no version says more.
  EXPECT_EQ(likely_id(">>> torch.__version__\n'2.3.1+cu121'\ntorch.cuda.is_available() returns False"), "");
}

TEST(ExplainLikely, ACudaBuildOnAMachineSetUpForAnOlderCudaPointsAtTheDriver) {
  auto text = ">>> torch.__version__\n'2.3.1+cu121'\nI installed CUDA 11.3 and torch.cuda.is_available() returns False";
  auto f = likely_cause(text, described(text));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "torch.cuda_too_new_for_driver");
  EXPECT_NE(f->message.find("CUDA 12.1"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("CUDA 11.3"), std::string::npos) << f->message;
  // The same with nvidia-smi's banner: the driver is shown, the checks decide, no guess here.
  auto shown = std::string(text) + "\n| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n";
  auto g = likely_cause(shown, described(shown));
  EXPECT_TRUE(!g || g->id != "torch.cuda_too_new_for_driver");
}

TEST(ExplainLikely, DockerItselfRejectingGpusNamesAnOldClientOrAJoinedArgument) {
  const std::string old_client =
      "Client:\n Version:\t17.12.0-ce\n API version:\t1.35\nServer: Docker Engine - Community\n Engine:\n  "
      "Version:\t19.03.6\n$ sudo docker run --gpus all nvidia/cuda:9.0-base nvidia-smi\nunknown flag: --gpus\n"
      "See 'docker run --help'.\n";
  auto f = situation_cause(old_client, described(old_client));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "container.docker_client_too_old");
  EXPECT_NE(f->evidence.back().find("17.12.0-ce"), std::string::npos) << f->evidence.back();
  EXPECT_EQ(situation_cause("Opening the dev container fails: unknown flag: --gpus all", {})->id,
            "container.gpus_flag_value_in_same_argument");
  // A client that has the flag: not this cause.
  const std::string new_client = "Client:\n Version: 24.0.5\nunknown flag: --gpus\n";
  auto g = situation_cause(new_client, described(new_client));
  EXPECT_TRUE(!g || g->id != "container.docker_client_too_old");
}

TEST(ExplainLikely, MigOnAndOneDeviceSeenNamesTheOneInstancePerProcessRule) {
  EXPECT_EQ(situation_cause("torch.cuda.device_count() shows only one gpu in MIG A100", {})->id,
            "gpu.mig_one_instance_per_process");
  const std::string table =
      "RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED\n"
      "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n"
      "|                                         |                        |               MIG M. |\n"
      "|   0  NVIDIA A100 80GB PCIe          Off |   00000000:31:00.0 Off |                   On |\n"
      "|                                         |                        |              Enabled |\n";
  EXPECT_EQ(situation_cause(table, {})->id, "gpu.mig_one_instance_per_process");
  // The column header alone, with MIG off, says nothing about MIG.
  std::string off = table;
  off.replace(off.find("Enabled"), 7, "Disabled");
  auto f = situation_cause(off, {});
  EXPECT_TRUE(!f || f->id != "gpu.mig_one_instance_per_process");
}

TEST(ExplainLikely, AGpuThatWorksOnlyAsRootPointsAtTheDevicePermissions) {
  EXPECT_EQ(situation_cause("Torch is not able to use GPU unless superuser, openSuse tumbleweed", {})->id,
            "driver.device_permission");
  EXPECT_EQ(situation_cause("is_available() is True only when I run it with sudo", {})->id, "driver.device_permission");
  auto f = situation_cause("I installed the driver with sudo apt install nvidia-driver-535", {});
  EXPECT_TRUE(!f || f->id != "driver.device_permission");
}

TEST(ExplainLikely, NvmlMissingInsideWslMeansWindowsGivesNoGpu) {
  const std::string text =
      "I use WSL2 with Docker Desktop.\nnvidia-container-cli: initialization error: load library failed: "
      "libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown\n";
  EXPECT_EQ(situation_cause(text, described(text))->id, "wsl.no_gpu_support");
}

TEST(ExplainLikely, AMacAskedForCudaHasNoNvidiaGpu) {
  EXPECT_EQ(situation_cause("This CTranslate2 package was not compiled with CUDA support\nI am on a Macbook Pro M1", {})->id,
            "hw.no_gpu");
  EXPECT_EQ(situation_cause("torch.cuda.is_available() returns False on macOS", {})->id, "hw.no_gpu");
  // A Mac with an NVIDIA card named: not this cause.
  auto f = situation_cause("macOS 10.13 with a GTX 1080 eGPU: torch.cuda.is_available() returns False", {});
  EXPECT_TRUE(!f || f->id != "hw.no_gpu");
}

TEST(ExplainLikely, AProgramsMinimumComputeCapabilityMetByTheGpuPointsAtTheDriver) {
  const std::string text =
      "[error] This program needs a CUDA-Enabled GPU (with at least compute capability 2.0).\n"
      "Windows 10, GeForce GTX 1080, driver 385.54\n";
  EXPECT_EQ(situation_cause(text, described(text))->id, "driver.too_old_for_runtime");
  // A GPU below the minimum: the GPU is the cause, not the driver.
  const std::string old_gpu = "This program needs a CUDA-Enabled GPU (with at least compute capability 3.5).\nGT 630\n";
  auto f = situation_cause(old_gpu, described(old_gpu));
  EXPECT_TRUE(!f || f->id != "driver.too_old_for_runtime");
}

TEST(ExplainLikely, ALlamaRunWithItsCudaBackendAndNoLayerCountOffloadsNothing) {
  EXPECT_EQ(situation_cause("koboldcpp not using GPU\n./koboldcpp-linux-x64 --usecublas\n", {})->id,
            "llama.no_gpu_layers");
  auto f = situation_cause("koboldcpp not using GPU\n./koboldcpp-linux-x64 --usecublas --gpulayers 35\n", {});
  EXPECT_TRUE(!f || f->id != "llama.no_gpu_layers");
}

TEST(ExplainLikely, DlibOrOpencvNotUsingTheGpuIsACpuBuildOfThatLibrary) {
  EXPECT_EQ(likely_id("face_recognition is not using the GPU; dlib.cuda.get_num_devices() says 1"),
            "framework.library_built_without_cuda");
  EXPECT_EQ(likely_id("Cv2Gpu.GetCudaEnabledDeviceCount() always returns 0"), "framework.library_built_without_cuda");
}


TEST(ExplainLikely, WslOneHasNoGpu) {
  EXPECT_EQ(situation_id("Running Keras in Bash on Windows: no graphics driver is found"), "wsl.no_gpu_support");
  EXPECT_EQ(situation_id("WSL 1 Ubuntu 18.04, tensorflow-gpu cannot see the GPU"), "wsl.no_gpu_support");
  // WSL without a version, or WSL 1 without a failing GPU: not this rule.
  EXPECT_NE(situation_id("WSL2 Ubuntu: tensorflow-gpu cannot see the GPU"), "wsl.no_gpu_support");
  EXPECT_EQ(situation_id("I moved from WSL 1 to WSL 2 last year"), "");
}

TEST(ExplainLikely, TaskManagerReadsTheThreeDEngine) {
  EXPECT_EQ(situation_id("Training a GAN, the GPU sits at 3% in Task Manager while the loss goes down"),
            "monitor.task_manager_3d_graph_not_compute");
  EXPECT_EQ(situation_id("训练时任务管理器里 GPU 利用率一直是 0"), "monitor.task_manager_3d_graph_not_compute");
  EXPECT_EQ(situation_id("I closed Chrome from Task Manager and now the GPU works"), "");
}

TEST(ExplainLikely, DockerBuildStepsHaveNoGpu) {
  EXPECT_EQ(situation_id("Building my extension in the Dockerfile fails: CUDA GPU not detected during the build,\n"
                         "while docker run --gpus all on the same image sees it"),
            "container.no_gpu_during_docker_build");
  EXPECT_NE(situation_id("docker run --gpus all: nvidia-smi works, torch sees the GPU"), "container.no_gpu_during_docker_build");
}

TEST(ExplainLikely, EnrootMountsTheDriverOnlyWhenTheImageAsksForIt) {
  EXPECT_EQ(situation_id("srun --container-image=python:3.11 --gpus=1 python train.py\n"
                         "RuntimeError: Found no NVIDIA driver on your system."),
            "container.visible_devices_void");
  EXPECT_NE(situation_id("RuntimeError: Found no NVIDIA driver on your system."), "container.visible_devices_void");
}

TEST(ExplainLikely, ADesktopHypervisorGivesItsGuestNoGpu) {
  EXPECT_EQ(situation_id("Ubuntu guest in VirtualBox on my gaming PC: pytorch does not detect the GPU"), "hw.no_gpu");
  // A VM of no named hypervisor may have its GPU passed through (a cloud VM with an A10): not this.
  EXPECT_NE(situation_id("virtual machine, Windows Server 2016, A10: the program only uses the CPU"), "hw.no_gpu");
  EXPECT_NE(situation_id("VMware ESXi with PCI passthrough of an A40: CUDA is not available"), "hw.no_gpu");
}

TEST(ExplainLikely, JaxHasNoCudaWheelOnNativeWindows) {
  EXPECT_EQ(situation_id("Windows 11, Python 3.11\npip install \"jax[cuda12]\"\n"
                         "ERROR: No matching distribution found for jaxlib==0.4.20+cuda12.cudnn89"),
            "jax.windows_native_no_gpu");
  EXPECT_NE(situation_id("Ubuntu 22.04: No matching distribution found for jaxlib==0.4.20+cuda12.cudnn89"),
            "jax.windows_native_no_gpu");
}

TEST(ExplainLikely, ACtranslateModelWithoutADeviceRunsOnTheCpu) {
  EXPECT_EQ(situation_id("translator = ctranslate2.Translator(\"ende_ct2\")\nit runs only on the CPU"),
            "code.no_device_placement");
  EXPECT_NE(situation_id("translator = ctranslate2.Translator(\"ende_ct2\", device=\"cuda\")\nit runs only on the CPU"),
            "code.no_device_placement");
}

TEST(ExplainLikely, AnStraceThatNeverFindsLibcuda) {
  const char* missing =
      "open(\"/usr/lib/libcuda.so\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n"
      "open(\"/lib/libcuda.so\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n";
  EXPECT_EQ(situation_id(missing), "log.libcuda_not_found");
  const std::string found = std::string(missing) + "open(\"/usr/lib/x86_64-linux-gnu/libcuda.so\", O_RDONLY|O_CLOEXEC) = 3\n";
  EXPECT_EQ(situation_id(found), "");
}

TEST(ExplainLikely, KubernetesNodeWithoutGpuCapacity) {
  EXPECT_EQ(situation_id("kubectl get nodes -o=custom-columns=NAME:.metadata.name,GPUs:.status.capacity.'nvidia\\.com/gpu'\n"
                         "NAME     GPUs\nnode-a   <none>"),
            "container.k8s_default_runtime_not_nvidia");
  EXPECT_EQ(situation_id("kubectl describe pod: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu."),
            "container.k8s_default_runtime_not_nvidia");
}

TEST(ExplainLikely, OllamaSplittingTheModelBetweenCpuAndGpu) {
  EXPECT_EQ(situation_id("ollama ps\nNAME SIZE PROCESSOR\nmistral:7b 6.1 GB 21%/79% CPU/GPU"),
            "ollama.partial_offload_memory_estimate");
  // A context length named: the context rule reads it.
  EXPECT_NE(situation_id("ollama with num_ctx 65536: 40%/60% CPU/GPU"), "ollama.partial_offload_memory_estimate");
}

TEST(ExplainLikely, AnotherInstallPutTheCpuPackageBack) {
  EXPECT_EQ(situation_id("pip install mxnet-cu112, then pip install gluonnlp reinstalled mxnet and the GPU is gone"),
            "mxnet.cpu_only_build");
  EXPECT_EQ(situation_id("安装 paddleocr 之后 paddlepaddle-gpu 被替换 (replaced) 成了 CPU 版"), "paddle.cpu_only_build");
  EXPECT_EQ(situation_id("pip install mxnet-cu112 works on the GPU"), "");
}

TEST(ExplainLikely, AFrameworksOwnNotCompiledWithCudaIsASymptom) {
  EXPECT_EQ(likely_id("paddle.fluid: AssertionError: Not compiled with CUDA"), "paddle.cpu_only_build");
  EXPECT_EQ(likely_id("Blender 3.6 from the distribution: no CUDA device is listed, cannot find the GPU"),
            "framework.library_built_without_cuda");
}

TEST(ExplainLikely, AnAmdCardRocmDoesNotDrive) {
  EXPECT_EQ(situation_id("ROCm 5.6 on Ubuntu: rocminfo shows no GPU agent for my Radeon RX 580"),
            "amd.gpu_unsupported_by_rocm");
  EXPECT_EQ(situation_id("kfd kfd: skipped device 1002:67df, PCI rejects atomics\nROCm finds no GPU"),
            "amd.pcie_atomics_unsupported");
  // A card on the support list, or an old card without ROCm in the post: not this cause.
  EXPECT_NE(situation_id("ROCm 6.1: rocminfo shows no GPU agent for my Radeon RX 7900 XTX"),
            "amd.gpu_unsupported_by_rocm");
  EXPECT_NE(situation_id("My RX 580 is not detected by the game"), "amd.gpu_unsupported_by_rocm");
}

// The web UI's start-up check on a machine whose GPU the post names as an "AMD 570 series" card.
TEST(ExplainLikely, AmdCardNamedByNumberWithTheWebUisCheck) {
  EXPECT_EQ(situation_id("RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS\n"
                         "My GPU is an AMD 570 series 4GB."),
            "torch.cuda_build_on_amd");
  EXPECT_NE(situation_id("Torch is not able to use GPU. I bought an AMD 5900X CPU last year."), "torch.cuda_build_on_amd")
      << "a CPU model number is not a graphics card";
}

// The program finds no GPU, but torch.cuda.is_available() is True in the same environment: the
// program hides the GPU (CUDA_VISIBLE_DEVICES or a GPU index in its config).
TEST(ExplainLikely, ProgramFindsNoGpuWhereTorchFindsOne) {
  EXPECT_EQ(situation_id("python run_pti.py fails with RuntimeError: No CUDA GPUs are available\n"
                         "although `import torch; torch.cuda.is_available()` returns True"),
            "env.cuda_visible_devices_invalid");
  EXPECT_NE(situation_id("RuntimeError: No CUDA GPUs are available\ntorch.cuda.is_available() returns False"),
            "env.cuda_visible_devices_invalid");
}

TEST(ExplainLikely, RocmNamedMakesTheGpuAmds) {
  EXPECT_EQ(situation_id("Our ROCm container now fails: RuntimeError: Found no NVIDIA driver on your system"),
            "torch.cuda_build_on_amd");
  // An installer that fetches the CUDA wheels although AMD was chosen.
  EXPECT_EQ(situation_id("setup.sh: AMD was selected, yet it runs pip install torch --index-url "
                         "https://download.pytorch.org/whl/cu121"),
            "torch.cuda_build_on_amd");
  // "amdgpu" in a kernel's name is not an AMD GPU.
  EXPECT_NE(situation_id("dkms: no nvidia module for kernel 5.13.18.amdgpu; the GPU is not detected"),
            "torch.cuda_build_on_amd");
}

TEST(ExplainLikely, VllmOnNativeWindows) {
  EXPECT_EQ(situation_id("pip install vllm on Windows 11 fails: No CUDA runtime is found, using CUDA_HOME=C:\\CUDA"),
            "vllm.windows_native_unsupported");
  EXPECT_NE(situation_id("pip install vllm in WSL 2 on Windows 11 fails: No CUDA runtime is found"),
            "vllm.windows_native_unsupported");
}

TEST(ExplainLikely, WhispersFp16WarningOnAMacPro) {
  EXPECT_EQ(likely_id("Mac Pro 2019 with a Radeon card\nUserWarning: FP16 is not supported on CPU; using FP32 instead"),
            "hw.no_gpu");
}

TEST(ExplainLikely, ADriverThatServesNoCuda11) {
  const std::string text = "Driver Version: 418.56      CUDA Version: 10.1\nthe demo stops: no CUDA capable devices found\n";
  EXPECT_EQ(situation_cause(text, described(text))->id, "driver.too_old_for_runtime");
  // A framework build for a CUDA that driver serves: the driver is not the cause.
  const std::string fits = "driver 410.48, torch 1.0.0+cu100, torch.cuda.is_available() returns False\n";
  auto f = situation_cause(fits, described(fits));
  EXPECT_TRUE(!f || f->id != "driver.too_old_for_runtime");
  // A driver of the CUDA 12 era: not this reading.
  const std::string recent = "Driver Version: 550.54.14\nno CUDA-capable device is detected\n";
  auto g = situation_cause(recent, described(recent));
  EXPECT_TRUE(!g || g->id != "driver.too_old_for_runtime");
}

TEST(ExplainLikely, APaddleGpuImageRunWithoutTheGpu) {
  EXPECT_EQ(situation_id("docker pull of the paddle 2.1 gpu image, then docker run:\nUserWarning: You are using GPU "
                         "version Paddle, but your CUDA device is not set properly. CPU device will be used by default."),
            "container.no_gpu");
  // The same warning outside a container: not this reading.
  EXPECT_NE(situation_id("UserWarning: You are using GPU version Paddle, but your CUDA device is not set properly."),
            "container.no_gpu");
}

TEST(ExplainLikely, AVisibleDevicesIndexPastTheGpusWhenTheProgramThenFindsNone) {
  EXPECT_EQ(situation_id("train.sh starts with CUDA_VISIBLE_DEVICES=2\nRuntimeError: No GPU found"),
            "env.cuda_visible_devices_invalid");
  // A machine the text says has several GPUs: an index past 0 is fine there.
  EXPECT_NE(situation_id("4 GPUs on the node; CUDA_VISIBLE_DEVICES=2\nRuntimeError: No GPU found"),
            "env.cuda_visible_devices_invalid");
}

TEST(ExplainLikely, TrainingInCpuModeIsTheSymptom) {
  EXPECT_EQ(likely_id("Windows 10, the conda environment of the tool with tensorflow: training runs in CPU mode only"),
            "tf.windows_native_no_gpu");
}

}  // namespace
TEST(ExplainLikely, LibrariesWithASeparateGpuPackage) {
  EXPECT_EQ(likely_id("cntk.all_devices() returns only (CPU,) on my workstation"), "framework.library_built_without_cuda");
  EXPECT_EQ(likely_id("DeepSpeech transcribes fine but does not use the GPU"), "framework.library_built_without_cuda");
  EXPECT_EQ(likely_id("faiss index search runs on the CPU only"), "framework.library_built_without_cuda");
  // The symptoms said in these words, about PyTorch.
  EXPECT_EQ(likely_id("my script uses only the CPU"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("How do I make it use the GPU instead of the CPU?"), "torch.cpu_only_build");
  EXPECT_EQ(likely_id("the app no longer works with CUDA on Windows 11"), "torch.cpu_only_build");
}

TEST(ExplainLikely, NoOpenClPlatform) {
  EXPECT_EQ(situation_id("clinfo\nNumber of platforms                               0\n"), "opencl.icd_missing");
  EXPECT_EQ(situation_id("OpenCL error: CL_PLATFORM_NOT_FOUND_KHR while starting the engine"), "opencl.icd_missing");
  EXPECT_EQ(situation_id("Number of platforms 1\nPlatform Name NVIDIA CUDA"), "");
}

TEST(ExplainLikely, HowTheHostWasSetUp) {
  EXPECT_EQ(situation_id("Theano says the GPU is not available, but it works after running nvidia-smi once"),
            "driver.device_nodes_missing");
  EXPECT_EQ(situation_id("Since the last Windows update my renderer can no longer find the GPU"),
            "windows.update_replaced_nvidia_driver");
  EXPECT_EQ(situation_id("After the Windows 11 update everything is faster"), "");
  const char* cdi =
      "cdiVersion: 0.5.0\ncontainerEdits:\n  deviceNodes:\n  - path: /dev/nvidiactl\n"
      "devices:\n- containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n  name: \"0\"\n"
      "nvidia-smi works in the podman container, torch.cuda.is_available() is False\n";
  EXPECT_EQ(situation_id(cdi), "driver.uvm_missing");
  EXPECT_EQ(situation_id(std::string(cdi) + "  - path: /dev/nvidia-uvm\n"), "");
  EXPECT_EQ(situation_id("WSL 2, inside nix-shell: torch.cuda.is_available() is False, CUDA samples work outside"),
            "log.libcuda_not_found");
  EXPECT_EQ(situation_id("I installed the NVIDIA driver inside the LXD container and nvidia-smi fails"),
            "container.no_gpu");
  EXPECT_EQ(situation_id("在 LXC 容器里安装了显卡驱动, nvidia-smi 报错"), "container.no_gpu");
}

TEST(ExplainLikely, AnAmdGpuWithoutCodeObjectsInTheRocmBuild) {
  EXPECT_EQ(situation_id("ROCm torch on my RX 6700 XT: hipErrorNoBinaryForGpu: Unable to find code object for all "
                         "current devices!"),
            "amd.gpu_unsupported_by_rocm");
  // The override already set, or a card on the list: another cause.
  EXPECT_NE(situation_id("HSA_OVERRIDE_GFX_VERSION=10.3.0 set, ROCm still says hipErrorNoBinaryForGpu"),
            "amd.gpu_unsupported_by_rocm");
  EXPECT_NE(situation_id("ROCm on an Instinct MI250: hipErrorNoBinaryForGpu"), "amd.gpu_unsupported_by_rocm");
}

TEST(ExplainLikely, AMacLaptopNamedInOtherWords) {
  EXPECT_EQ(situation_id("On my Mac laptop the tool prints: CUDA not available, running on CPU"), "hw.no_gpu");
}

TEST(ExplainLikely, ReadFromTheSixteenthBatch) {
  EXPECT_EQ(likely_id("mxnet 1.9: mx.context.num_gpus() returns 0 on my workstation"), "mxnet.cpu_only_build");
  EXPECT_EQ(likely_id("RELION 3 refine is not using the GPU although I pass --gpu"),
            "framework.library_built_without_cuda");
  EXPECT_EQ(situation_id("vkCreateInstance failed -9\ninvalid gpu device"), "vulkan.nvidia_icd_missing");
  EXPECT_EQ(situation_id("docker container: [hevc_nvenc] Cannot load libnvidia-encode.so.1"),
            "container.driver_capabilities_missing_video");
  // The same library missing on a host is not the container's capability.
  EXPECT_NE(situation_id("[hevc_nvenc] Cannot load libnvidia-encode.so.1"), "container.driver_capabilities_missing_video");
  EXPECT_EQ(situation_id("RuntimeError: The MPS backend is supported on MacOS 12.3+.\nProductVersion:\t12.6.1"),
            "mps.macos_too_old_for_torch_build");
  EXPECT_EQ(situation_id("RuntimeError: The MPS backend is supported on MacOS 12.3+.\nProductVersion:\t14.2"), "");
  EXPECT_EQ(situation_id("the forked worker fails: cuInit failed: initialization error"), "log.cuda_fork");
  EXPECT_EQ(situation_id("cuInit failed: initialization error"), "");
  EXPECT_EQ(situation_id("CUDA_VISIBLE_DEVICES=-1 python train.py\nRuntimeError: No CUDA GPUs are available"),
            "env.cuda_visible_devices_hidden");
  EXPECT_EQ(situation_id("CUDA_VISIBLE_DEVICES=1 python train.py\nRuntimeError: No CUDA GPUs are available"), "");
  EXPECT_EQ(situation_id("My NVIDIA driver gets uninstalled after each Windows update"),
            "windows.update_replaced_nvidia_driver");
}

TEST(ExplainLikely, AnOldMacWithAnNvidiaGpuIsNotAModernMac) {
  EXPECT_EQ(situation_id("macOS Sonoma on a MacBook: cuda runtime error (35) : CUDA driver version is insufficient"),
            "hw.no_gpu");
  EXPECT_EQ(situation_id("OS X Yosemite 10.10.5, CUDA Driver Version: 7.5.20\ncuda runtime error (35) : CUDA driver "
                         "version is insufficient"),
            "");
}

TEST(ExplainLikely, DockerFromASnapCannotReachTheNvidiaLibraries) {
  EXPECT_EQ(situation_id("snap install docker\ndocker run --gpus all img\nnvidia-container-cli: initialization error: load "
                         "library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory"),
            "log.docker_no_gpu_runtime");
  EXPECT_EQ(situation_id("nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot "
                         "open shared object file"),
            "");
}

}  // namespace gpudoctor::cli

namespace gpudoctor::cli {
namespace {

// Patterns learnt from the test20 batch, each in our own words.
TEST(ExplainLikely, AGpuNamedWithoutSpacesAndANewerArchitectureThanTheStatedCuda) {
  // No framework named: a program built on the machine's CUDA.
  EXPECT_EQ(situation_id("Doesn't work on my RTX3060TI.\nI installed Cuda10.2 and cudnn 7.6"), "log.arch_not_compatible");
  EXPECT_EQ(situation_id("Doesn't work on my RTX 3060 Ti.\nI installed CUDA 11.4"), "");  // 11.4 builds for sm_86
  // PyTorch's wheels bring their own CUDA: the machine's CUDA says nothing about them.
  EXPECT_EQ(situation_id("torch does not use my RTX3060TI, CUDA 10.2 installed"), "");
}

TEST(ExplainLikely, BuiltForAnOlderGpuAndRunOnANewerOne) {
  EXPECT_EQ(situation_id("I built it with a GTX 1080 but it can't run on the machine with an RTX 3070"),
            "log.arch_not_compatible");
  // The same architecture family, or only one GPU: not this.
  EXPECT_EQ(situation_id("I built it with a GTX 1080 and run it on a GTX 1070"), "");
  EXPECT_EQ(situation_id("I built it with CUDA 11.8 for my RTX 3070"), "");
}

TEST(ExplainLikely, AGpuTheNamedDriverBranchNoLongerDrives) {
  EXPECT_EQ(situation_id("GeForce 1070 and the new driver?\n590.48.01-2\nneither module supports the card"),
            "driver.gpu_unsupported_by_driver");
  EXPECT_EQ(situation_id("GTX 1080 Ti with driver 580.95.05 finds no GPU"), "");  // 580 still drives Pascal
  EXPECT_EQ(situation_id("RTX 4090 with driver 590.44.01 finds no GPU"), "");       // Ada is current
}

TEST(ExplainLikely, TchDownloadsACpuLibtorch) {
  EXPECT_EQ(situation_id("In Python torch sees the T4; with tch, Cuda::is_available() prints false"),
            "torch.cpu_only_build");
  EXPECT_EQ(situation_id("println!(\"{:?}\", tch::Cuda::is_available());\n> false"), "torch.cpu_only_build");
  // tch named in a post about something else: no guess.
  EXPECT_EQ(situation_id("tch::Tensor::matmul is slow with tch-rs 0.13"), "");
}

TEST(ExplainLikely, LibtorchOnWindowsLinkedWithoutTorchCuda) {
  EXPECT_EQ(situation_id("Visual Studio 2019 project with libtorch from download.pytorch.org/libtorch/cu118/\n"
                         "torch::cuda::device_count() returns 0"),
            "libtorch.torch_cuda_not_linked");
  // The CPU libtorch is another story.
  EXPECT_EQ(situation_id("Visual Studio 2019 project with libtorch from download.pytorch.org/libtorch/cpu/\n"
                         "torch::cuda::device_count() returns 0"),
            "");
}

TEST(ExplainLikely, ColabAvailabilityAnsweredFalseOnALaterLine) {
  const std::string post =
      "On Colab neither framework sees the GPU:\n"
      "import torch\n"
      "torch.cuda.is_available()\n"
      "\n"
      "returns:\n"
      "\n"
      "False\n";
  EXPECT_EQ(situation_id(post), "hw.no_gpu");
  // A driver that sees no device is not a runtime without a GPU.
  EXPECT_EQ(situation_id("Colab: RuntimeError: No CUDA GPUs are available"), "");
}

TEST(ExplainLikely, WslNvmlWithoutDriverLoadedIsALinuxLibraryInWsl) {
  EXPECT_EQ(situation_id("Under WSL2 nvmlInit_v2 returned 9, so the GPU is not detected"), "wsl.linux_driver_installed");
  EXPECT_EQ(situation_id("On Ubuntu nvmlInit_v2 returned 9"), "");
}

TEST(ExplainLikely, TensorflowFromRstudioOnWindowsIsNative) {
  EXPECT_EQ(likely_id("Windows 11, WSL2 configured too.\ntf$config$list_physical_devices('GPU') returns an empty list "
                      "in RStudio"),
            "tf.windows_native_no_gpu");
}

TEST(ExplainLikely, AContainerGivenTheGpuWhoseTorchFindsNone) {
  EXPECT_EQ(situation_id("docker run --gpus all my-image\nRuntimeError: Attempting to deserialize object on a CUDA "
                         "device but torch.cuda.is_available() is False."),
            "driver.too_old_for_runtime");
  // A CPU wheel in the image, or the host's nvidia-smi shown: other causes.
  EXPECT_EQ(situation_id("docker run --gpus all my-image\ntorch 2.1.0+cpu\ntorch.cuda.is_available() is False"), "");
}

TEST(ExplainLikely, AnOldDriverIsNotTheCauseWhenTorchSeesTheGpu) {
  const std::string post =
      "In [2]: torch.cuda.is_available()\n"
      "Out[2]: True\n"
      "but my other program does not use the GPU\n"
      "| NVIDIA-SMI 440.64       Driver Version: 440.64       CUDA Version: 10.2     |\n";
  EXPECT_NE(likely_id(post), "driver.too_old_for_runtime");
  EXPECT_EQ(likely_id("my program does not use the GPU\n| NVIDIA-SMI 440.64       Driver Version: 440.64       CUDA "
                      "Version: 10.2     |\n"),
            "driver.too_old_for_runtime");
}

TEST(ExplainLikely, AGpuOlderThanKeplerIsTheCauseOutsidePyTorch) {
  // Written without a space ("9500GT"), under a miner's "insufficient driver".
  EXPECT_EQ(likely_id("NVIDIA insufficient driver\nMy GPU is a Palit GeForce 9500GT 1GB, Windows 7"),
            "driver.gpu_unsupported_by_driver");
  EXPECT_EQ(likely_id("ccminer fails to start on my GeForce GTX 560 Ti"), "driver.gpu_unsupported_by_driver");
  // PyTorch says more (no wheel carries the architecture); a Kepler card is not this case.
  EXPECT_NE(likely_id("torch.cuda.is_available() returns False on my GeForce GTX 560 Ti"),
            "driver.gpu_unsupported_by_driver");
  EXPECT_NE(likely_id("ccminer fails to start on my GeForce GTX 780"), "driver.gpu_unsupported_by_driver");
}

TEST(ExplainLikely, ADriverUpgradedUnderneathNeedsAReboot) {
  EXPECT_EQ(likely_id("Basecaller breaks with driver 580\nA security update seems to upgrade the NVIDIA driver from "
                      "550 to 580 automatically."),
            "driver.version_mismatch");
  // An upgrade the user made, with no sign it happened by itself: not this case.
  EXPECT_NE(likely_id("I upgraded the driver from 550 to 580 and CUDA is not available"), "driver.version_mismatch");
}

TEST(ExplainLikely, BothTheCpuAndTheGpuPackageInstalled) {
  EXPECT_EQ(likely_id("安装paddle-gpu无法识别gpu\npaddlepaddle2.3.2\npaddlepaddle-gpu2.3.2\nwin10"),
            "paddle.cpu_only_build");
  EXPECT_EQ(likely_id("GPU not used\nmxnet 1.9.1\nmxnet-cu112 1.9.1"), "mxnet.cpu_only_build");
  // The GPU package alone is not this case (only the symptom's common cause, said as a guess).
  const std::string alone = "paddlepaddle-gpu 2.5.1 does not use the GPU";
  auto f = likely_cause(alone, described(alone));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->message.find("installed beside"), std::string::npos) << f->message;
}

TEST(ExplainLikely, OpenMmListsItsPlatformsWithoutCuda) {
  EXPECT_EQ(likely_id("OpenMM with CUDA: the installation check lists only the Reference, CPU and OpenCL platforms"),
            "log.cuda_library_missing");
  EXPECT_EQ(likely_id("python -m openmm.testInstallation\nThere are 3 Platforms available:\n1 Reference - Successfully "
                      "computed forces\n2 CPU - Successfully computed forces\n3 OpenCL - Successfully computed forces\n"
                      "I need CUDA"),
            "log.cuda_library_missing");
  EXPECT_EQ(likely_id("python -m openmm.testInstallation\nThere are 4 Platforms available:\n1 Reference - Successfully "
                      "computed forces\n2 CPU - Successfully computed forces\n3 CUDA - Successfully computed forces\n"
                      "4 OpenCL - Successfully computed forces\nCUDA is slow"),
            "");
}

TEST(ExplainLikely, APinnedCudaJaxlibOffWindows) {
  EXPECT_EQ(likely_id("ERROR: Could not find a version that satisfies the requirement jaxlib==0.4.29+cuda12.cudnn88 "
                      "(from versions: 0.4.30)"),
            "jax.cpu_only");
  EXPECT_EQ(likely_id("Windows 11\nERROR: Could not find a version that satisfies the requirement "
                      "jaxlib==0.4.29+cuda12.cudnn88"),
            "jax.windows_native_no_gpu");
}

TEST(ExplainLikely, ADockerfileNamesAContainerThatCannotLoadTheDriverLibrary) {
  EXPECT_EQ(likely_id("Cannot load libcuda.so.1\nFROM jrottenberg/ffmpeg:4.2-nvidia\nencoding with h264_nvenc fails"),
            "container.no_gpu");
  EXPECT_NE(likely_id("Cannot load libcuda.so.1\nencoding with h264_nvenc fails"), "container.no_gpu");
}

TEST(ExplainLikely, AProgramThatNeedsANewerCudaThanTheDriverServes) {
  const std::string smi =
      "| NVIDIA-SMI 535.183.01             Driver Version: 535.183.01   CUDA Version: 12.2     |\n";
  EXPECT_EQ(likely_id(smi + "The release requires CUDA 13.0 and crashes at start-up"), "driver.too_old_for_runtime");
  // Within one major version, minor-version compatibility lets it run: not this case outside a container.
  EXPECT_NE(likely_id(smi + "The release requires CUDA 12.4 and crashes at start-up"), "driver.too_old_for_runtime");
  // A container image checks its requirement against the host's driver.
  EXPECT_EQ(likely_id("docker compose up fails: the image depends on cuda 12.8 and errors at start\nOur server's cuda "
                      "is 12.4 and cannot be upgraded"),
            "driver.too_old_for_runtime");
  // Nothing failing: no cause.
  EXPECT_NE(likely_id(smi + "Does the release that requires CUDA 13.0 exist for Windows too?"),
            "driver.too_old_for_runtime");
}

TEST(ExplainLikely, JaxOnAGpuBelowItsMinimumComputeCapability) {
  EXPECT_EQ(likely_id("jax keeps falling back to CPU; the GPU is a Quadro K4000"), "log.arch_not_compatible");
  EXPECT_EQ(likely_id("jax only uses the CPU; my GPU has compute capability 3.0"), "log.arch_not_compatible");
  // A GPU JAX supports: its usual cause (the CPU jaxlib).
  EXPECT_EQ(likely_id("jax keeps falling back to CPU; the GPU is an RTX 3090"), "jax.cpu_only");
  // The same old GPU under torch is torch's own reading.
  EXPECT_NE(likely_id("torch keeps falling back to CPU; the GPU is a Quadro K4000"), "log.arch_not_compatible");
}

TEST(ExplainLikely, AProgramThatNeedsACudaEnabledGpu) {
  const std::string needs = "[error] This program needs a CUDA-Enabled GPU (with at least compute capablility 2.0).\n";
  EXPECT_EQ(likely_id("Windows 10, Quadro M2000M\n" + needs), "log.driver_too_old");
  EXPECT_EQ(likely_id("Meshroom fails at DepthMap\n" + needs), "hw.no_gpu");
}

TEST(ExplainLikely, ADesktopVirtualMachineHasNoGpu) {
  EXPECT_EQ(likely_id("Can I have CUDA for darknet in a VMware virtual machine running Ubuntu? Laptop: MX150"),
            "hw.no_gpu");
  EXPECT_EQ(likely_id("VirtualBox guest: nvidia-smi says no devices were found"), "hw.no_gpu");
  // ESXi with passthrough does give the VM a GPU.
  EXPECT_NE(likely_id("ESXi VM with PCI passthrough of a T4: CUDA not available in the VMware guest"), "hw.no_gpu");
}

TEST(ExplainLikely, CudaInWslWithNoFrameworkIsTheLoaderPath) {
  EXPECT_EQ(likely_id("WSL: the CUDA example of the toolchain finds no GPU, number of devices is 0"),
            "log.libcuda_not_found");
  // torch named: torch's own common cause.
  EXPECT_EQ(likely_id("WSL: torch.cuda.is_available() returns False"), "torch.cpu_only_build");
}

TEST(ExplainLikely, LibrariesThatRunOnOnnxRuntime) {
  EXPECT_EQ(likely_id("rembg: Not using GPU!\nimport torch\nfrom rembg import remove"), "ort.cpu_package_shadows_gpu");
}

TEST(ExplainLikely, AnInsufficientDriverInAContainerWhoseDriverIsNewEnough) {
  const std::string post =
      "faster-whisper in a docker container on unraid:\n"
      "RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version\n"
      "Nvidia Driver Version: 565.77\n";
  auto f = driver_not_reached(post, described(post));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->id, "container.no_gpu");
  // A CUDA newer than the driver serves, named: the driver is too old after all.
  const std::string newer = post + "the image is built on CUDA 13.0\n";
  EXPECT_FALSE(driver_not_reached(newer, described(newer)));
  // An old driver: too old indeed.
  const std::string old =
      "docker: CUDA driver version is insufficient for CUDA runtime version\nNvidia Driver Version: 470.182.03\n";
  EXPECT_FALSE(driver_not_reached(old, described(old)));
  // Not a container: left to the driver finding.
  const std::string host =
      "RuntimeError: CUDA driver version is insufficient for CUDA runtime version\nNvidia Driver Version: 565.77\n";
  EXPECT_FALSE(driver_not_reached(host, described(host)));
}

TEST(ExplainLikely, ANewGpuAndAPyTorchThePostSuspectsIsTooOld) {
  EXPECT_EQ(likely_id("RTX3060，每次运行都显示用的是 cpu，是不是 pytorch 版本太低？"), "torch.arch_unsupported");
  EXPECT_EQ(likely_id("torch.cuda.is_available() returns False on my RTX 3090; is my torch too old?"),
            "torch.arch_unsupported");
  // No suspicion of the version: the common cause.
  EXPECT_EQ(likely_id("torch.cuda.is_available() returns False on my RTX 3090"), "torch.cpu_only_build");
  // An old GPU suspected with an old torch: not a missing architecture of a new GPU.
  EXPECT_NE(likely_id("torch.cuda.is_available() returns False on my GTX 1080; is my torch too old?"),
            "torch.arch_unsupported");
}

TEST(ExplainLikely, AGpuThatIdlesWhileTheWorkRuns) {
  EXPECT_EQ(likely_id("One sentence takes an hour. GPU load stays around 10% while the CPU is at 60~70%."),
            "torch.cpu_only_build");
  EXPECT_EQ(likely_id("keras with tensorflow: GPU usage is about 2-3% during training"), "tf.missing_gpu_libs");
  // A busy GPU is not the symptom.
  EXPECT_EQ(likely_id("GPU usage is 85% and training is slow"), "");
}

TEST(ExplainLikely, ATensorFlowLogWithoutAnyCudaLineIsACpuBuild) {
  const std::string log =
      "I tensorflow/core/common_runtime/local_device.cc:25] Local device intra op parallelism threads: 8\n"
      "Device mapping: no known devices.\n";
  EXPECT_EQ(likely_id(log), "tf.cpu_only_build");
  // A GPU build says what it did about CUDA: not this case.
  EXPECT_NE(likely_id(log + "W tensorflow/stream_executor/platform/default/dso_loader.cc:59] Could not load dynamic "
                            "library 'libcudart.so.10.1'\n"),
            "tf.cpu_only_build");
}

TEST(ExplainLikely, TensorFlowBeforeTwoElevenStillUsedTheGpuOnWindows) {
  EXPECT_EQ(likely_id("Windows 10: tensorflow runs only on cpu\nTensorFlow version: 2.15.0"), "tf.windows_native_no_gpu");
  EXPECT_NE(likely_id("Windows 10: tensorflow-gpu runs only on cpu\nTensorFlow version: (tensorflow-gpu 1.10.0)"),
            "tf.windows_native_no_gpu");
}

TEST(ExplainLikely, ExecutionProvidersAreOnnxRuntimes) {
  EXPECT_EQ(likely_id("not have cuda and tensorrt\n1.3.1 EXECUTION PROVIDERS only azure and cpu"),
            "ort.cpu_package_shadows_gpu");
}

TEST(ExplainLikely, PaddlesOwnWordsForACpuBuild) {
  EXPECT_EQ(likely_id("pip install paddlex\nE0115 analysis_config.cc:91] Please compile with gpu to EnableGpu()"), "paddle.cpu_only_build");
  EXPECT_EQ(likely_id("安装了 paddlepaddle-gpu 之后，还显示 Please use PaddlePaddle with GPU version"),
            "paddle.cpu_only_build");
}

TEST(ExplainLikely, AContainerWhoseProgramCountsAGpuWasGivenOne) {
  const std::string post = "paddle in docker\nCUDA_VISIBLE_DEVICES found gpu count: 1\n"
                           "But PARL found that Paddle was not complied with CUDA, which may cause issues.\n";
  EXPECT_EQ(likely_id(post), "paddle.cpu_only_build");
  EXPECT_EQ(likely_id("paddle in docker: Paddle was not complied with CUDA"), "container.no_gpu");
}

}  // namespace
}  // namespace gpudoctor::cli
