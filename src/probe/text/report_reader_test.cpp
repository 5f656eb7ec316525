#include <probe/text/report_reader.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpudoctor::probe::text {
namespace {

// Through feed_lines, as explain feeds a block: its prefilter must let every shape through.
facts::Facts read_block(std::string_view text) {
  ReportReader r;
  r.feed_lines(text, 1);
  return r.facts();
}

facts::Facts read(std::string_view text) {
  ReportReader r;
  std::size_t n = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto nl = text.find('\n', start);
    auto line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    r.feed_line(line, ++n);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return r.facts();
}

const facts::FrameworkBuild& torch(const facts::Facts& f) {
  static const facts::FrameworkBuild none;
  if (!f.framework.environments || f.framework.environments->empty() || (*f.framework.environments)[0].builds.empty()) {
    ADD_FAILURE() << "no torch build read";
    return none;
  }
  return (*f.framework.environments)[0].builds[0];
}

TEST(ReportReader, InstalledDriverAndToolkitPackages) {
  // apt list --installed: two driver branches; the newest is the one kept.
  auto apt = read_block(
      "nvidia-driver-550-server/jammy-updates,now 550.163.01-0ubuntu0.22.04.2 amd64 [installed]\n"
      "nvidia-driver-570-server/jammy-updates,now 570.158.01-0ubuntu0.22.04.1 amd64 [installed,automatic]\n"
      "cuda-toolkit-13-0/unknown,now 13.0.0-1 amd64 [installed,automatic]\n");
  EXPECT_EQ(apt.driver.nvml.driver_version.value_or(""), "570.158.01");
  EXPECT_EQ(apt.environment.libraries.cuda_toolkit_version.value_or(""), "13.0");
  // dpkg -l, rpm -qa and pacman -Q.
  EXPECT_EQ(read_block("ii  libnvidia-compute-535:amd64  535.183.01-0ubuntu0.22.04.1  amd64  NVIDIA libcompute package\n")
                .driver.nvml.driver_version.value_or(""),
            "535.183.01");
  EXPECT_EQ(read_block("akmod-nvidia-3:550.78-1.fc40.x86_64\n").driver.nvml.driver_version.value_or(""), "550.78");
  EXPECT_EQ(read_block("nvidia-utils 550.78-1\n").driver.nvml.driver_version.value_or(""), "550.78");
  // A package whose name and version disagree is not read as the driver.
  EXPECT_FALSE(read_block("ii  nvidia-utils-535  470.82.01-0ubuntu1  amd64\n").driver.nvml.driver_version.known());
  // nvidia-smi's banner wins over a package, whichever comes first.
  auto both = read_block("ii  nvidia-driver-535  535.183.01-0ubuntu1  amd64\n"
                         "| NVIDIA-SMI 550.54.15    Driver Version: 550.54.15    CUDA Version: 12.4 |\n");
  EXPECT_EQ(both.driver.nvml.driver_version.value_or(""), "550.54.15");
  // The toolkit as conda and a post's table show it.
  EXPECT_EQ(read_block("cuda-toolkit              12.4.1               0    nvidia\n").environment.libraries.cuda_toolkit_version.value_or(""),
            "12.4");
  EXPECT_EQ(read_block("| CUDA toolkit (pixi/nvcc) | 13.1.115 |\n").environment.libraries.cuda_toolkit_version.value_or(""), "13.1");
  EXPECT_FALSE(read_block("I installed the CUDA toolkit yesterday\n").environment.libraries.cuda_toolkit_version.known());
}

TEST(ReportReader, Wsl1AsPeopleShowIt) {
  for (std::string_view text : {"I'm on WSL1 with Ubuntu 20.04\n",
                                "Linux PC 4.4.0-19041-Microsoft #488-Microsoft Mon Sep 01 13:43:00 PST 2020 x86_64\n",
                                "  NAME      STATE           VERSION\n* Ubuntu    Running         1\n"}) {
    auto f = read_block(text);
    EXPECT_TRUE(f.environment.wsl.is_wsl) << text;
    EXPECT_FALSE(f.environment.wsl.is_wsl2) << text;
    EXPECT_EQ(f.environment.wsl.dxg.value_or(true), false) << text;
  }
  // lspci with no PCI bus, on Windows: the Ubuntu app under WSL 1.
  auto one = read_block("Ubuntu installed as an app in Windows 10\n"
                        "pcilib: Cannot open /proc/bus/pci lspci: Cannot find any working access method.\n");
  EXPECT_TRUE(one.environment.wsl.is_wsl);
  EXPECT_EQ(one.environment.wsl.dxg.value_or(true), false);
  EXPECT_FALSE(read_block("pcilib: Cannot open /proc/bus/pci\n").environment.wsl.is_wsl) << "a container, not WSL";
  // The WSL app's own version ("WSL version: 1.2.5.0") and a WSL 2 kernel are not WSL 1; the kernel's
  // release is read.
  auto f = read_block("WSL version: 1.2.5.0\nKernel version: 5.15.90.1-microsoft-standard-WSL2\n");
  EXPECT_TRUE(f.environment.wsl.is_wsl2);
  EXPECT_FALSE(f.environment.wsl.dxg.known());
  EXPECT_EQ(f.environment.kernel.release.value_or(""), "5.15.90.1-microsoft-standard-WSL2");
}

TEST(ReportReader, NvidiaSmiBannerAndGpuRows) {
  auto f = read(
      "+---------------------------------------------------------------------------------------+\n"
      "| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
      "|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0  On |                  N/A |\n"
      "|   1  Tesla K80                      Off | 00000000:02:00.0 Off |                    0 |\n");
  EXPECT_EQ(f.driver.nvml.driver_version.value_or(""), "535.104.05");
  EXPECT_EQ(f.driver.nvml.cuda_driver_version.value_or(0), 12020);
  ASSERT_EQ(f.driver.nvml.devices.size(), 2u);
  EXPECT_EQ(f.driver.nvml.devices[0].name.value_or(""), "NVIDIA GeForce RTX 3090");
  EXPECT_EQ(f.driver.nvml.devices[1].name.value_or(""), "Tesla K80");
  EXPECT_FALSE(f.framework.environments.known()) << "no framework in the text: unknown, not empty";
}

TEST(ReportReader, CollectEnvFields) {
  auto f = read(
      "PyTorch version: 2.3.1+cpu\n"
      "Is debug build: False\n"
      "CUDA used to build PyTorch: None\n"
      "Is CUDA available: False\n"
      "GPU models and configuration: GPU 0: NVIDIA GeForce GTX 1080 Ti\n"
      "Nvidia driver version: 550.54.14\n");
  EXPECT_EQ(torch(f).version, "2.3.1+cpu");
  EXPECT_EQ(torch(f).kind, facts::BuildKind::cpu);
  EXPECT_EQ(f.driver.nvml.driver_version.value_or(""), "550.54.14");
  ASSERT_EQ(f.driver.nvml.devices.size(), 1u);
  EXPECT_EQ(f.driver.nvml.devices[0].name.value_or(""), "NVIDIA GeForce GTX 1080 Ti");
}

// conda's TensorFlow build string names a CPU variant (eigen_, mkl_) or a CUDA one (gpu_).
TEST(ReportReader, CondaTensorFlowBuildStrings) {
  auto f = read("tensorflow                1.15.0          eigen_py37h9f89a44_0\n");
  ASSERT_TRUE(f.framework.environments.known());
  ASSERT_FALSE(f.framework.environments->empty());
  ASSERT_FALSE(f.framework.environments->front().builds.empty());
  EXPECT_EQ(f.framework.environments->front().builds.front().kind, facts::BuildKind::cpu);
  auto g = read("tensorflow                1.15.0          gpu_py37h0f0df58_0\n");
  ASSERT_TRUE(g.framework.environments.known());
  ASSERT_FALSE(g.framework.environments->empty());
  EXPECT_NE(g.framework.environments->front().builds.front().kind, facts::BuildKind::cpu);
}

// An issue template's field that says the build in words: "(CPU toolkit)" is a CPU build.
TEST(ReportReader, ATemplateFieldThatSaysTheBuildIsForTheCpu) {
  auto f = read("* PyTorch version: 1.5.0 (CPU toolkit)\n* CUDA/cuDNN version: 11.01\n");
  EXPECT_EQ(torch(f).version, "1.5.0");
  EXPECT_EQ(torch(f).kind, facts::BuildKind::cpu);
  // Without it, the build is unknown.
  auto g = read("* PyTorch version: 1.5.0\n");
  EXPECT_NE(torch(g).kind, facts::BuildKind::cpu);
}

// A title cut off inside the version ("2.2.0+cu12"), the body's field complete: the complete one wins.
TEST(ReportReader, AVersionCutOffInTheTitleIsCompletedByTheBody) {
  auto f = read("RTX 5090 Not Detected by PyTorch 2.2.0+cu12\n\n- **PyTorch Version**: 2.2.0+cu121\n");
  EXPECT_EQ(torch(f).version, "2.2.0+cu121");
  EXPECT_EQ(torch(f).cuda_version, "12.1");
  auto other = read("torch 2.2.0+cu121\ntorch 2.3.0+cu118\n");
  EXPECT_EQ(torch(other).version, "2.2.0+cu121") << "a second, different tagged version does not replace the first";
  // Unless it is a CPU build after a CUDA one: the banner of the run that no longer uses the GPU.
  auto banners = read("Ultralytics YOLOv8.0.53 Python-3.9.1 torch-1.8.1+cu111 CUDA:0 (NVIDIA GeForce RTX 3070, 8192MiB)\n"
                      "Ultralytics YOLOv8.0.54 Python-3.10.6 torch-2.0.0+cpu CPU\n");
  EXPECT_EQ(torch(banners).version, "2.0.0+cpu");
  EXPECT_EQ(torch(banners).kind, facts::BuildKind::cpu);
}

TEST(ReportReader, ReplTranscriptWithNoneForTheCudaVersion) {
  auto f = read(">>> import torch\n>>> torch.__version__\n'2.0.1'\n>>> torch.version.cuda\n>>> torch.cuda.is_available()\nFalse\n");
  EXPECT_EQ(torch(f).version, "2.0.1");
  EXPECT_EQ(torch(f).kind, facts::BuildKind::cpu) << "torch.version.cuda printed nothing: None";
}

TEST(ReportReader, OldReplVersionsAndCondaBuildStrings) {
  auto f = read("print(torch.__version__)\n1.2.0\n>>> print(torch.version.cuda)\n10.0.130\n");
  EXPECT_EQ(torch(f).cuda_version, "10.0");
  EXPECT_EQ(torch(f).kind, facts::BuildKind::cuda);
  auto c = read("# Name      Version   Build  Channel\npytorch     2.1.0     py3.10_cuda11.8_cudnn8.7.0_0    pytorch\n");
  EXPECT_EQ(torch(c).cuda_version, "11.8");
  auto cpu = read("pytorch     2.1.0     py3.10_cpu_0    pytorch\ncpuonly     2.0       0       pytorch\n");
  EXPECT_EQ(torch(cpu).kind, facts::BuildKind::cpu);
}

// conda's transaction plan names the build it is about to install: its build string says CPU or CUDA.
TEST(ReportReader, CondaTransactionPlans) {
  const char* plan =
      "The following NEW packages will be INSTALLED:\n\n"
      "  cpu-only           pytorch/linux-64::cpu-only-1.0-0\n"
      "  pytorch-nightly    pytorch/linux-64::pytorch-nightly-1.2.0.dev20190805+cpu-py3.7_cpu_0\n";
  auto f = read_block(plan);
  EXPECT_EQ(torch(f).kind, facts::BuildKind::cpu);
  EXPECT_EQ(torch(f).version, "1.2.0.dev20190805+cpu");
  EXPECT_EQ(torch(f).installer, "conda");
  EXPECT_TRUE(torch(f).package_dir.empty());
  auto g = read_block("  pytorch            pytorch/linux-64::pytorch-2.1.0-py3.10_cuda11.8_cudnn8.7.0_0\n");
  EXPECT_EQ(torch(g).kind, facts::BuildKind::cuda);
  EXPECT_EQ(torch(g).cuda_version, "11.8");
  EXPECT_EQ(torch(g).installer, "conda");
  auto h = read_block("  pytorch            conda-forge/linux-64::pytorch-2.4.0-cpu_generic_py311_h1_0\n");
  EXPECT_EQ(torch(h).kind, facts::BuildKind::cpu);
  // conda-forge writes the CUDA version without its dot, in plans and in `conda list` alike.
  auto k = read_block("  pytorch            conda-forge/linux-64::pytorch-2.4.1-cuda120_py311h8b1d8e4_300\n");
  EXPECT_EQ(torch(k).cuda_version, "12.0");
  auto l = read_block("pytorch                   2.4.1           cuda118_py310h1234567_300    conda-forge\n");
  EXPECT_EQ(torch(l).cuda_version, "11.8");
  // An update plan says "old --> new": what gets installed is the new one, here a CPU build from
  // another channel superseding the CUDA build.
  auto m = read_block(
      "The following packages will be SUPERSEDED by a higher-priority channel:\n"
      "  pytorch    pytorch::pytorch-1.7.1-py3.8_cuda10.2~ --> pkgs/main::pytorch-1.7.1-cpu_py38h6a09485_0\n");
  EXPECT_EQ(torch(m).kind, facts::BuildKind::cpu);
  auto n = read_block("  pytorch    pkgs/main::pytorch-1.7.1-cpu_py38h6a09485_0 --> pytorch::pytorch-1.7.1-py3.8_cuda10.2_cudnn7.6.5_0\n");
  EXPECT_EQ(torch(n).kind, facts::BuildKind::cuda);
  EXPECT_EQ(torch(n).cuda_version, "10.2");
}

TEST(ReportReader, IssuePageArtefactsAreRemoved) {
  EXPECT_EQ(clean_line("> > \x1b[1;31mRuntimeError\x1b[0m: x &gt; y"), "RuntimeError: x > y");
  EXPECT_EQ(clean_line(">>> torch.__version__"), ">>> torch.__version__");
  auto f = read("&gt; torch==1.13.1+cu117\n");
  EXPECT_EQ(torch(f).cuda_version, "11.7");
}

TEST(ReportReader, TorchsOwnWarningGivesTheDriversCuda) {
  auto f = read("UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040).\n");
  EXPECT_EQ(f.driver.nvml.cuda_driver_version.value_or(0), 11040);
}

TEST(ReportReader, ContainerRunCommandsAndWindows) {
  auto f = read("I start it with `sudo docker run -it --rm myimage:gpu python train.py`\n");
  EXPECT_EQ(f.environment.container.launch_command.value_or(""), "sudo docker run -it --rm myimage:gpu python train.py");
  EXPECT_TRUE(f.environment.container.in_container);
  auto both = read("docker run -it img sh\ndocker run --gpus all img nvidia-smi\n");
  EXPECT_EQ(both.environment.container.launch_command.value_or(""), "docker run --gpus all img nvidia-smi");
  auto win = read("OS: Microsoft Windows 11 Pro\ntensorflow 2.12.0\n");
  EXPECT_EQ(win.meta.os_pretty_name.value_or(""), std::string(k_windows_os_name));
  ASSERT_TRUE(win.framework.environments.known());
  EXPECT_EQ((*win.framework.environments)[0].builds[0].version, "2.12.0");
  auto wsl = read("Windows 11, Ubuntu 22.04 under WSL2\ntensorflow 2.12.0\n");
  EXPECT_FALSE(wsl.meta.os_pretty_name.known()) << "WSL is Linux";
}

TEST(ReportReader, ATaglessTorchFromPypiIsTheDefaultWheel) {
  auto linux_post = read("torch==2.1.0\n");
  EXPECT_EQ(torch(linux_post).kind, facts::BuildKind::cuda);
  EXPECT_EQ(torch(linux_post).cuda_version, "12.1");
  auto windows_post = read("C:\\Users\\me\\venv\\Scripts\\python.exe\ntorch==2.1.0\n");
  EXPECT_EQ(torch(windows_post).kind, facts::BuildKind::cpu);
}

TEST(ReportReader, CudaVisibleDevicesFromShellAndPython) {
  auto env = [](const facts::Facts& f) {
    return f.environment.env ? f.environment.env->at("CUDA_VISIBLE_DEVICES") : std::string("(unknown)");
  };
  EXPECT_EQ(env(read("(venv) ~/src$ CUDA_VISIBLE_DEVICES=3 python train.py\n")), "3");
  EXPECT_EQ(env(read("export CUDA_VISIBLE_DEVICES=\"0,1\"\n")), "0,1");
  EXPECT_EQ(env(read("os.environ['CUDA_VISIBLE_DEVICES'] = '2'\n")), "2");
  EXPECT_EQ(env(read("run `CUDA_VISIBLE_DEVICES=$0 ./demo.py`\n")), "$0");
  EXPECT_FALSE(read("CUDA_VISIBLE_DEVICES=$GPU python x.py\n").environment.env.known()) << "a variable's value is not shown";
  EXPECT_FALSE(read("os.environ['CUDA_VISIBLE_DEVICES'] = str(args.gpu)\n").environment.env.known());
}

TEST(ReportReader, WslWindowsBuildAndDriverLibraryPaths) {
  auto f = read("C:\\> ver\nMicrosoft Windows [Version 10.0.18363.1556]\nand in my Ubuntu under WSL nothing works\n");
  EXPECT_TRUE(f.environment.wsl.is_wsl);
  EXPECT_FALSE(f.environment.wsl.dxg.known()) << "the text does not say";
  EXPECT_EQ(f.environment.wsl.windows_build.value_or(0), 18363);
  EXPECT_FALSE(f.meta.os_pretty_name.known()) << "WSL is Linux";
  EXPECT_EQ(read("platform: Windows-10-10.0.22631-SP0\n").environment.wsl.windows_build.value_or(0), 0) << "not WSL";
  // The build as Windows' About page and winver show it.
  EXPECT_EQ(read("Version\t20H2\nOS build\t19042.572\nKernel 4.19.128-microsoft-standard\n")
                .environment.wsl.windows_build.value_or(0),
            19042);
  EXPECT_EQ(read("WSL2 on Windows 10 21H2 (19044.1288), RTX 3090\n").environment.wsl.windows_build.value_or(0), 19044);
  EXPECT_EQ(read("WSL 2, Version 21H2 (OS Build 22000.978)\n").environment.wsl.windows_build.value_or(0), 22000);

  auto libs = read("OSError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: cannot open\nlibnvidia-ml.so.1 and libcuda.so.535.104.05 "
                   "and /usr/lib/wsl/lib/libcuda.so.1\nlibcudart.so.12\n").environment.libraries.libraries;
  ASSERT_EQ(libs.size(), 3u);
  EXPECT_EQ(libs[0].path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
  EXPECT_EQ(libs[1].path, "libcuda.so.535.104.05");
  EXPECT_EQ(libs[1].version, "535.104.05");
  EXPECT_TRUE(libs[2].in_wsl_dir);
  auto rt = read("loaded /opt/app/lib/libcudart.so.12.4.99\nCould not load dynamic library 'libcudart.so.11.0'\n");
  EXPECT_EQ(rt.driver.cudart.runtime_version.value_or(0), 12040);
  EXPECT_FALSE(read("Could not load dynamic library 'libcudart.so.11.0'\n").driver.cudart.runtime_version.known())
      << "a soname that failed to load is no runtime in use";
  EXPECT_EQ(libs[2].kind, facts::DriverLibKind::libcuda);
}

TEST(ReportReader, JaxFallbackWithoutAFailedCudaBackendIsACpuJaxlib) {
  auto jax = [](std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> messages) {
    ReportReader r;
    std::size_t n = 0;
    for (const auto& [id, caps] : messages) r.feed_message(id, caps, ++n);
    auto f = r.facts();
    return f.framework.environments && !f.framework.environments->empty() &&
           (*f.framework.environments)[0].builds[0].framework == facts::Framework::jax &&
           (*f.framework.environments)[0].builds[0].kind == facts::BuildKind::cpu;
  };
  EXPECT_TRUE(jax({{"log.jax_cpu_fallback", {}}}));
  EXPECT_TRUE(jax({{"log.jax_cpu_fallback", {{"platform", "cpu"}}}}));
  EXPECT_FALSE(jax({{"log.jax_cpu_fallback", {{"reason", "no supported devices"}}}, {"log.jax_cpu_fallback", {}}}));
  EXPECT_FALSE(jax({{"log.cuda_visible_devices_none", {}}, {"log.jax_cpu_fallback", {}}})) << "CUDA was there and failed";
}

TEST(ReportReader, CudaToolkitAndTensorflowBuild) {
  auto toolkit = [](std::string_view text) {
    return read(text).environment.libraries.cuda_toolkit_version.value_or("(unknown)");
  };
  EXPECT_EQ(toolkit("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 11.8, V11.8.89\n"), "11.8");
  EXPECT_EQ(toolkit("$ cat /usr/local/cuda/version.txt\nCUDA Version 10.0.130\n"), "10.0");
  EXPECT_EQ(toolkit("- CUDA/cuDNN version: 11.2/8.1\n"), "11.2");
  EXPECT_EQ(toolkit("| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n"), "(unknown)")
      << "nvidia-smi's CUDA version is the driver's, not a toolkit";

  auto tf = read("- TensorFlow version (use command below): 2.3.0\n");
  ASSERT_TRUE(tf.framework.environments.known());
  const auto& b = (*tf.framework.environments)[0].builds[0];
  EXPECT_EQ(b.version, "2.3.0");
  EXPECT_EQ(b.kind, facts::BuildKind::cuda);
  EXPECT_EQ(b.cuda_version, "10.1");
  EXPECT_EQ((*read("tensorflow-cpu==2.9.1\n").framework.environments)[0].builds[0].kind, facts::BuildKind::cpu);
  EXPECT_EQ((*read("tensorflow==1.15.0\n").framework.environments)[0].builds[0].kind, facts::BuildKind::unknown)
      << "before 2.1 the GPU build was tensorflow-gpu";
  EXPECT_EQ((*read("tensorflow-gpu==1.15.0\n").framework.environments)[0].builds[0].cuda_version, "10.0");
}

TEST(ReportReader, DriverVersionAsPostsTypeIt) {
  auto driver = [](std::string_view text) { return read(text).driver.nvml.driver_version.value_or("(unknown)"); };
  EXPECT_EQ(driver("- Driver: 550.163.01\n"), "550.163.01");
  EXPECT_EQ(driver("**NVIDIA Driver Version**: 460\n"), "460");
  EXPECT_EQ(driver("环境：cuda 10.1，驱动 418.87，显卡 T4\n"), "418.87");
  EXPECT_EQ(driver("see cuda_driver.cc:152] failed call\n"), "(unknown)");
}

TEST(ReportReader, DriverVersionInProse) {
  auto driver = [](std::string_view text) { return read_block(text).driver.nvml.driver_version.value_or("(unknown)"); };
  EXPECT_EQ(driver("The nvidia driver is 410.48.\n"), "410.48");
  EXPECT_EQ(driver("my GPU driver version was 535.104.05 before the upgrade\n"), "535.104.05");
  EXPECT_EQ(driver("CUDA 10.1 needs driver 418.39 or newer\n"), "(unknown)");
  EXPECT_EQ(driver("the driver is 12.2\n"), "(unknown)");
  // Said as what the reporter has: a dotted version only.
  EXPECT_EQ(driver("I have CUDA 12.9.41 and CUDA driver 570.133.20; which must I upgrade?\n"), "570.133.20");
  EXPECT_EQ(driver("running nvidia driver 535.104.05 on Ubuntu\n"), "535.104.05");
  EXPECT_EQ(driver("I have 3 GPUs and driver 535 installed\n"), "(unknown)");
  // A requirement on the same line is no installed driver.
  EXPECT_EQ(driver("I have read that CUDA 12.4 needs driver 550.54 or newer\n"), "(unknown)");
}

// `python -c` printing torch's answers, and the lines it printed after it.
TEST(ReportReader, PythonOneLinerAndItsOutput) {
  for (auto read_text : {read, read_block}) {
    auto f = read_text(
        "C:\\> python -c \"import torch; print(torch.__version__); print(torch.version.cuda); print(torch.cuda.is_available())\"\n"
        "\n2.4.0+cpu\nNone\nFalse\n");
    EXPECT_EQ(torch(f).version, "2.4.0+cpu");
    EXPECT_EQ(torch(f).kind, facts::BuildKind::cpu);
    auto g = read_text("$ python3 -c 'import torch; print(torch.__version__, torch.cuda.is_available())'\n2.3.1+cu121 False\n");
    EXPECT_EQ(torch(g).version, "2.3.1+cu121");
    EXPECT_EQ(torch(g).cuda_version, "12.1");
  }
  // A word or two before the output ("returned:") is passed over.
  auto r = read_block("python -c \"import torch; print(torch.__version__); print(torch.version.cuda)\"\n\nreturned:\n\n2.4.0+cpu\nNone\n");
  EXPECT_EQ(torch(r).version, "2.4.0+cpu");
  // Output that is not what the prints would print is not read as their answers.
  auto h = read_block("python -c \"import torch; print(torch.__version__)\"\nTraceback (most recent call last):\n");
  EXPECT_FALSE(h.framework.environments && !h.framework.environments->empty() &&
               !(*h.framework.environments)[0].builds.empty());
}

TEST(ReportReader, GpuAndTorchFieldsOfIssueTemplates) {
  auto f = read("## Environment\n- GPU: NVIDIA GeForce GTX 1060 (compute capability 6.1)\n- PyTorch: 2.9.0+cu128\n");
  ASSERT_EQ(f.driver.nvml.devices.size(), 1u);
  EXPECT_EQ(f.driver.nvml.devices[0].name.value_or(""), "NVIDIA GeForce GTX 1060");
  EXPECT_EQ(torch(f).version, "2.9.0+cu128");
  EXPECT_EQ(read("GPU model and memory: GTX 1650, 4GB\n").driver.nvml.devices[0].name.value_or(""), "GTX 1650");
  EXPECT_EQ(read("**NVIDIA GPU**: P40\n").driver.nvml.devices[0].name.value_or(""), "P40");
  EXPECT_TRUE(read("GPU available: True (cuda), used: True\n").driver.nvml.devices.empty());
  EXPECT_TRUE(read("GPU: yes\n").driver.nvml.devices.empty()) << "no model number";
}

TEST(ReportReader, SingularityAndApptainerCommands) {
  auto f = read_block("$ singularity build model.sif docker://me/model\n$ singularity shell model.sif\nSingularity> python3 train.py\n");
  ASSERT_TRUE(f.environment.container.launch_command.known());
  EXPECT_EQ(*f.environment.container.launch_command, "singularity shell model.sif");
  EXPECT_EQ(f.environment.container.runtime, "singularity");
  auto g = read_block("apptainer exec --nv image.sif python -c 'import torch'\n");
  ASSERT_TRUE(g.environment.container.launch_command.known());
  EXPECT_EQ(g.environment.container.runtime, "apptainer");
  EXPECT_NE(g.environment.container.launch_command->find("--nv"), std::string::npos);
}

TEST(ReportReader, ComposeAndKubernetesSpecsWithoutAGpu) {
  auto launch = [](std::string_view text) { return read(text).environment.container.launch_command.value_or("(none)"); };
  EXPECT_EQ(launch("services:\n  trainer:\n    image: myorg/train:cuda12\n    command: python train.py\n"),
            "docker compose service (image: myorg/train:cuda12) without a GPU device reservation");
  EXPECT_EQ(launch("services:\n  t:\n    image: x\n    deploy:\n      resources:\n        reservations:\n          devices:\n"
                   "            - driver: nvidia\n              capabilities: [gpu]\n"),
            "(none)");
  EXPECT_EQ(launch("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    image: nvcr.io/nvidia/pytorch:24.01-py3\n"),
            "Kubernetes pod (image: nvcr.io/nvidia/pytorch:24.01-py3) without an nvidia.com/gpu limit");
  EXPECT_EQ(launch("kind: Pod\n    image: x\n    resources:\n      limits:\n        nvidia.com/gpu: 1\n"), "(none)");
}

TEST(ReportReader, OnnxRuntimePackages) {
  auto f = read("$ pip list | grep onnx\nonnx              1.15.0\nonnxruntime       1.16.3\nonnxruntime-gpu   1.16.3\n");
  ASSERT_TRUE(f.framework.environments.known());
  const auto& b = (*f.framework.environments)[0].builds[0];
  EXPECT_EQ(b.framework, facts::Framework::onnxruntime);
  EXPECT_EQ(b.companions, (std::vector<std::string>{"onnxruntime 1.16.3", "onnxruntime-gpu 1.16.3"}));
  EXPECT_FALSE(read("[W:onnxruntime:Default, provider_bridge_ort.cc:1546 TryGetProviderInfo_CUDA] x\n")
                   .framework.environments.known());
}

TEST(ReportReader, MessagesThatStateAFact) {
  ReportReader r;
  r.feed_message("log.cuda_visible_devices_none", {}, 4);
  EXPECT_EQ(r.facts().driver.cudart.device_count.value_or(-1), 0);
  ReportReader old;
  old.feed_message("log.driver_too_old", {{"version", "11040"}}, 5);
  EXPECT_FALSE(old.facts().driver.cudart.device_count_result.known()) << "torch's message names no error code";
  old.feed_message("log.driver_too_old", {{"cuda_code", "35"}}, 6);
  EXPECT_EQ(old.facts().driver.cudart.device_count_result.value_or(0), 35);
  r.feed_message("log.nvml_init_failed", {{"nvml_code", "9"}}, 5);
  EXPECT_EQ(r.facts().driver.nvml.init_error.code, 9);
  EXPECT_TRUE(r.any());
}

// Packages that carry a CUDA runtime give the runtime the process loads; the newest one wins, and a
// libcudart file the text names beats any package.
TEST(ReportReader, PackagesThatCarryACudaRuntime) {
  struct Case {
    std::string_view text;
    int runtime;
  };
  for (const auto& c : std::initializer_list<Case>{
           {"[pip3] nvidia-cuda-runtime-cu12==12.1.105\n", 12010},
           {"nvidia-cuda-runtime-cu11      11.7.99\n", 11070},
           {"cudatoolkit               11.3.1               h2bc3f7f_2\n", 11030},
           {"$ conda install -c conda-forge cudatoolkit=10.2\n", 10020},
           {"cuda-cudart               12.1.105                      0    nvidia\n", 12010},
           {"pip install cuda-python==12.6.0\n", 12060},
           {"cuda-bindings 13.0.1\n", 13000},
           {"cupy-cuda117 10.6.0\n", 11070},
           {"pip install cupy-cuda12x\n", 12000},
           {"cupy-cuda92  7.8.0\n", 9020},
           {"python -m pip install paddlepaddle-gpu==2.5.1.post117 -f https://x/whl/linux/mkl/avx/stable.html\n", 11070},
           {"jaxlib                    0.4.13+cuda12.cudnn89\n", 12000},
           {"jaxlib==0.1.57+cuda102\n", 10020},
           {"jax-cuda12-plugin 0.4.30\n", 12000},
           {"pip install llama-cpp-python --extra-index-url https://abetlen.github.io/llama-cpp-python/whl/cu121\n", 12010},
           {"cupy-cuda11x 12.0.0\n[pip3] nvidia-cuda-runtime-cu12==12.4.127\ncupy-cuda102 9.0\n", 12040},
           {"nvidia-cuda-runtime-cu12 12.4.127\nfound /opt/lib/libcudart.so.11.8.89\n", 11080},
       }) {
    SCOPED_TRACE(c.text);
    auto f = read(c.text);
    EXPECT_EQ(f.driver.cudart.runtime_version.value_or(0), c.runtime);
    EXPECT_EQ(nlohmann::json(read_block(c.text)), nlohmann::json(f)) << "the prefilter lets the line through";
  }
  // Names that carry no runtime, or no CUDA version: a paddle tag of CUDA and cuDNN together, torch's
  // own index (torch's CUDA is judged by the torch checks), a version too old to be CUDA's.
  for (std::string_view text : {"paddlepaddle-gpu==1.8.5.post107\n", "pip install torch --index-url https://download.pytorch.org/whl/cu121\n",
                                "cudatoolkit 2.1\n", "cuda-python\n", "nvidia-cudnn-cu12==8.9.2.26\n"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(read(text).driver.cudart.runtime_version.known());
  }
}

// The toolkit's runtime is judged only when nothing in the text ships its own (torch, ONNX
// Runtime's CUDA package): torch runs on the runtime of its wheel, whatever nvcc says.
TEST(ReportReader, TheToolkitIsTheRuntimeOnlyWithoutAFrameworkThatShipsOne) {
  auto alone = read("Cuda compilation tools, release 12.4, V12.4.131\nDriver Version: 470.182.03\n");
  EXPECT_EQ(alone.driver.cudart.runtime_version.value_or(0), 12040);
  auto with_torch = read("Cuda compilation tools, release 12.4, V12.4.131\ntorch==2.1.0+cu118\n");
  EXPECT_FALSE(with_torch.driver.cudart.runtime_version.known());
}

// Every test text above, fed as a block, reads the same facts as fed line by line.
TEST(ReportReader, ThePrefilterLetsEveryShapeThrough) {
  for (std::string_view text : {
           "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n"
           "|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0  On |                  N/A |\n"
           "| 30%   40C    P8    20W / 350W |   12000MiB / 24576MiB |      0%      Default |\n",
           "PyTorch version: 2.3.1\nCUDA used to build PyTorch: 12.1\nIs CUDA available: False\n"
           "GPU models and configuration: GPU 0: NVIDIA GeForce GTX 1080 Ti\nNvidia driver version: 550.54.14\n",
           ">>> torch.__version__\n'2.0.1'\n>>> torch.version.cuda\n>>> x\n",
           "conda list:\npytorch     2.1.0     py3.10_cuda11.8_cudnn8.7.0_0    pytorch\n",
           "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n",
           "OS: Microsoft Windows 11 Pro\ntensorflow 2.12.0\n$ podman run -it img sh\n",
           "x\n$ CUDA_VISIBLE_DEVICES=3 python train.py\nos.environ[\"CUDA_VISIBLE_DEVICES\"]='1'\n",
           "Microsoft Windows [Version 10.0.18363.1556]\nUbuntu on WSL\nAttributeError: /lib/x86_64-linux-gnu/libcuda.so: x\n"
           "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1\nfound /lib/libcudart.so.12.4.99\n",
           "Cuda compilation tools, release 11.8, V11.8.89\n* CUDA/cuDNN version: 11.2/8.1\nCUDA Version 10.0.130\n",
           "x\n- Driver: 550.163.01\n", "驱动 418.87\n", "- GPU: GeForce GTX 1060\n**NVIDIA GPU**: P40\n",
           "services:\n  a:\n    image: x\n", "kind: Pod\n  - image: y\n",
           "kind: Job\n    image: y\n    runtime: nvidia\n", "x\nonnxruntime==1.16.3\nonnxruntime_gpu 1.17.0\n"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(nlohmann::json(read_block(text)), nlohmann::json(read(text)));
  }
}

TEST(ReportReader, HugeAndBinaryLinesAreIgnored) {
  ReportReader r;
  r.feed_line(std::string(1 << 20, 'x'), 1);
  r.feed_line(std::string("\0\xff\xfe Driver Version: \x80", 21), 2);
  EXPECT_FALSE(r.any());
}

}  // namespace
}  // namespace gpudoctor::probe::text
