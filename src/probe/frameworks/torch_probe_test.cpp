// What the environment scan learns about torch from files alone, on an in-memory file system: conda's
// records (conda-meta file names, the build string), and the kernels in lib/libtorch_cuda.so read
// through FileSystem::read_range.
#include <probe/python_probe.hpp>

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include <sys/memory_file_system.hpp>

namespace gpudoctor::probe {
namespace {

const std::string k_prefix = "/opt/conda/envs/ml";
const std::string k_site = k_prefix + "/lib/python3.11/site-packages";

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/fatbin/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

facts::PythonEnvironment scan(std::map<std::string, std::string> files) {
  auto fs = sys::make_memory_file_system(std::move(files));
  facts::PythonEnvironment env;
  env.interpreter = k_prefix + "/bin/python";
  env.prefix = k_prefix;
  env.sys_path = std::vector<std::string>{k_site};
  scan_python_environment(*fs, "", env);
  return env;
}

const facts::FrameworkBuild& torch_of(const facts::PythonEnvironment& env) {
  static const facts::FrameworkBuild none;
  for (const auto& b : env.builds) {
    if (b.framework == facts::Framework::torch) return b;
  }
  ADD_FAILURE() << "no torch build found";
  return none;
}

TEST(CondaMeta, PackageNamesWithDashesAndTheHistoryFile) {
  auto env = scan({{k_prefix + "/conda-meta/history", "==> 2024-05-02 <==\n"},
                   {k_prefix + "/conda-meta/pytorch-cuda-12.1-ha16c6d3_5.json", "{}"},
                   {k_prefix + "/conda-meta/python-3.11.9-h955ad1f_0.json", "{}"}});
  EXPECT_EQ(env.conda_meta, k_prefix + "/conda-meta");
  ASSERT_TRUE(env.conda_packages) << env.conda_packages.why();
  ASSERT_EQ(env.conda_packages->size(), 2u);
  EXPECT_EQ((*env.conda_packages)[1], (facts::CondaPackage{"pytorch-cuda", "12.1", "ha16c6d3_5"}));
  EXPECT_EQ((*env.conda_packages)[0].name, "python");
}

TEST(CondaMeta, NotACondaEnvironment) {
  auto env = scan({{k_site + "/six.py", ""}});
  EXPECT_EQ(env.conda_meta, "");
  EXPECT_FALSE(env.conda_packages);
}

TEST(CondaMeta, TheBuildStringSaysTheCudaBuildWhenVersionPyCannot) {
  // PyTorch's conda channel: no dist-info INSTALLER, an egg-info; version.py unreadable here.
  auto env = scan({{k_prefix + "/conda-meta/pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json", "{}"},
                   {k_site + "/torch/__init__.py", ""},
                   {k_site + "/torch-2.1.0-py3.11.egg-info/PKG-INFO", "Name: torch\nVersion: 2.1.0\n\n"}});
  const auto& b = torch_of(env);
  EXPECT_EQ(b.installer, "conda");
  EXPECT_EQ(b.kind, facts::BuildKind::cuda);
  EXPECT_EQ(b.cuda_version, "12.1");
  EXPECT_EQ(b.cudnn_version, "8.9.2");
  EXPECT_EQ(b.version, "2.1.0");
}

TEST(CondaMeta, CondaForgeBuildStrings) {
  // conda-forge installs with pip inside the build: a dist-info whose INSTALLER is conda.
  std::map<std::string, std::string> files = {
      {k_site + "/torch/__init__.py", ""},
      {k_site + "/torch-2.5.1.dist-info/METADATA", "Name: torch\nVersion: 2.5.1\n\n"},
      {k_site + "/torch-2.5.1.dist-info/INSTALLER", "conda\n"}};
  auto with = [&](const std::string& meta) {
    auto f = files;
    f[k_prefix + "/conda-meta/" + meta] = "{}";
    return scan(f);
  };
  auto cuda = with("pytorch-2.5.1-cuda126_mkl_py311_h0c5f2bc_300.json");
  EXPECT_EQ(torch_of(cuda).kind, facts::BuildKind::cuda);
  EXPECT_EQ(torch_of(cuda).cuda_version, "12.6");
  EXPECT_EQ(torch_of(cuda).installer, "conda");
  EXPECT_EQ(torch_of(with("pytorch-2.5.1-cpu_generic_py311_h2b2d2c1_0.json")).kind, facts::BuildKind::cpu);
  // Without conda's record the INSTALLER file still says who installed it.
  EXPECT_EQ(torch_of(scan(files)).installer, "conda");
  EXPECT_EQ(torch_of(scan(files)).kind, facts::BuildKind::unknown);
}

TEST(CondaMeta, VersionPyWinsOverTheBuildString) {
  auto env = scan({{k_prefix + "/conda-meta/pytorch-2.1.0-py3.11_cpu_0.json", "{}"},
                   {k_site + "/torch/__init__.py", ""},
                   {k_site + "/torch/version.py", "__version__ = '2.1.0'\ncuda = '12.1'\nhip = None\n"}});
  EXPECT_EQ(torch_of(env).kind, facts::BuildKind::cuda);
  EXPECT_EQ(torch_of(env).cuda_version, "12.1");
}

TEST(TorchKernels, ReadFromTheFatbinOfLibtorchCuda) {
  auto env = scan({{k_site + "/torch/__init__.py", ""},
                   {k_site + "/torch/version.py", "__version__ = '2.5.1+cu121'\ncuda = '12.1'\nhip = None\n"},
                   {k_site + "/torch/lib/libtorch_cuda.so", fixture("cubin_only.so")},
                   {k_site + "/torch/lib/libc10_cuda.so", fixture("ptx_only.so")}});
  const auto& b = torch_of(env);
  ASSERT_TRUE(b.kernel_images) << b.kernel_images.why();
  ASSERT_EQ(b.kernel_images->size(), 2u);
  const auto& first = (*b.kernel_images)[0];  // libtorch_cuda.so first
  EXPECT_EQ(first.path, k_site + "/torch/lib/libtorch_cuda.so");
  EXPECT_EQ(first.cubin_names(), (std::vector<std::string>{"sm_75", "sm_80"}));
  EXPECT_TRUE(first.ptx_names().empty());
  EXPECT_EQ((*b.kernel_images)[1].ptx_names(), std::vector<std::string>{"compute_80"});
  EXPECT_EQ(b.gpu_libraries.size(), 2u);
}

TEST(TorchKernels, AnUnreadableLibraryIsUnknownWithItsReason) {
  auto env = scan({{k_site + "/torch/__init__.py", ""},
                   {k_site + "/torch/version.py", "__version__ = '2.5.1+cu121'\ncuda = '12.1'\nhip = None\n"},
                   {k_site + "/torch/lib/libtorch_cuda.so",
                    "\x7f"
                    "ELF"}});
  const auto& b = torch_of(env);
  ASSERT_FALSE(b.kernel_images);
  EXPECT_NE(b.kernel_images.why().find(k_site + "/torch/lib/libtorch_cuda.so"), std::string::npos)
      << b.kernel_images.why();
}

TEST(TorchKernels, ACpuBuildHasNoCudaLibraryToRead) {
  auto env = scan({{k_site + "/torch/__init__.py", ""},
                   {k_site + "/torch/version.py", "__version__ = '2.5.1+cpu'\ncuda = None\nhip = None\n"},
                   {k_site + "/torch/lib/libtorch_cpu.so",
                    "\x7f"
                    "ELF"}});
  const auto& b = torch_of(env);
  EXPECT_FALSE(b.kernel_images);
  EXPECT_NE(b.kernel_images.why().find("no " + k_site + "/torch/lib/libtorch_cuda.so"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::probe
