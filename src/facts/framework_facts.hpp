// The facts of the framework and toolchain layer: the Python environments a user runs, what is
// installed in each (distributions, and every copy of each framework's import package in sys.path
// order), what each framework build says about itself in its own files (torch/version.py,
// tensorflow/python/platform/build_info.py, paddle/version/__init__.py, the GPU libraries shipped
// beside it), what shadows a package, and, with --deep, what the frameworks said when imported.
// Plain data; JSON round trip in framework_facts.cpp.
#pragma once

#include <string>
#include <vector>

#include <facts/fatbin_facts.hpp>
#include <facts/known.hpp>
#include <facts/loader_facts.hpp>

namespace gpudoctor::facts {

enum class InterpreterOrigin { virtual_env, conda_env, path, option };
// executed: the interpreter printed it (--deep); layout: read from the interpreter's files without
// running it (pyvenv.cfg, the landmark, site-packages, .pth path lines); capture: recorded by
// `gpudoctor capture`.
enum class SysPathSource { executed, layout, capture };
enum class Framework { torch, tensorflow, jax, onnxruntime, paddle, cupy, tensorrt };
// What a build can drive, as its own files say. unknown: the files did not say.
enum class BuildKind { unknown, cpu, cuda, rocm, xpu };

const char* to_string(Framework f);
const char* to_string(BuildKind k);

NLOHMANN_JSON_SERIALIZE_ENUM(InterpreterOrigin, {{InterpreterOrigin::path, "path"},
                                                 {InterpreterOrigin::virtual_env, "virtual_env"},
                                                 {InterpreterOrigin::conda_env, "conda_env"},
                                                 {InterpreterOrigin::option, "option"}})
NLOHMANN_JSON_SERIALIZE_ENUM(SysPathSource, {{SysPathSource::executed, "executed"},
                                             {SysPathSource::layout, "layout"},
                                             {SysPathSource::capture, "capture"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Framework, {{Framework::torch, "torch"},
                                         {Framework::tensorflow, "tensorflow"},
                                         {Framework::jax, "jax"},
                                         {Framework::onnxruntime, "onnxruntime"},
                                         {Framework::paddle, "paddle"},
                                         {Framework::cupy, "cupy"},
                                         {Framework::tensorrt, "tensorrt"}})
NLOHMANN_JSON_SERIALIZE_ENUM(BuildKind, {{BuildKind::unknown, "unknown"},
                                         {BuildKind::cpu, "cpu"},
                                         {BuildKind::cuda, "cuda"},
                                         {BuildKind::rocm, "rocm"},
                                         {BuildKind::xpu, "xpu"}})

// One *.dist-info or *.egg-info directory.
struct Distribution {
  std::string name;          // normalised (PEP 503): "onnxruntime-gpu"
  std::string version;       // "2.5.1+cu121"
  std::string metadata_dir;  // ".../site-packages/torch-2.5.1+cu121.dist-info"
  bool operator==(const Distribution&) const = default;
};

// One copy of a framework's import package on sys.path.
struct FrameworkBuild {
  Framework framework = Framework::torch;
  std::string package_dir;    // ".../site-packages/torch"
  int sys_path_index = -1;    // where on sys.path it was found
  std::string distribution;   // the distribution that owns it: "tensorflow-cpu"; "" when none says so
  std::string version;        // "2.5.1+cu121" (the build's own file, else its distribution)
  BuildKind kind = BuildKind::unknown;
  std::string cuda_version;   // "12.1"; "" for none
  std::string rocm_version;   // torch.version.hip
  std::string cudnn_version;  // "9"
  std::vector<std::string> gpu_libraries;  // GPU libraries of the build that are present (paths)
  std::vector<std::string> companions;     // GPU add-on distributions beside it: "jax-cuda12-plugin 0.4.30"
  std::vector<std::string> evidence;       // what the files said: "torch/version.py: cuda = None"
  // What the dynamic loader would do with the GPU libraries' DT_NEEDED trees (and, for TensorFlow,
  // the CUDA libraries it dlopens): the edges nothing would resolve, and every distinct file a
  // libcudart.so.* name resolves to ("libcudart.so.12 -> /usr/local/cuda/lib64/libcudart.so.12").
  std::vector<Resolution> unresolved_libraries;
  std::vector<std::string> cuda_runtimes;
  std::vector<std::string> loader_notes;   // libraries that could not be examined, and why
  // The GPU code of the build's CUDA libraries (torch: lib/libtorch_cuda*.so, lib/libc10_cuda.so), read
  // from their fatbinary headers: one summary per library that could be read, its entries made distinct
  // (distinct_entries). Unknown, with the reason, when the build has no such library or none was readable.
  Known<std::vector<FatbinSummary>> kernel_images = Known<std::vector<FatbinSummary>>::unknown("not read");
  std::string installer;  // who installed the package: "pip", "conda", "debian", ... ("" when nothing says)
  bool operator==(const FrameworkBuild&) const = default;
};

// One package of a conda environment, from the name of its PREFIX/conda-meta/NAME-VERSION-BUILD.json
// file (conda's own record of what it linked into the prefix; neither version nor build contains '-').
struct CondaPackage {
  std::string name;     // "pytorch"
  std::string version;  // "2.1.0"
  std::string build;    // "py3.11_cuda12.1_cudnn8.9.2_0" (PyTorch's channel); "cuda126_mkl_py311_h..." (conda-forge)
  bool operator==(const CondaPackage&) const = default;
};

// A module or directory that `import NAME` would find before the real package.
struct Shadow {
  std::string module;    // "torch"
  std::string path;      // "/home/u/proj/torch.py"
  std::string where;     // "current directory" or "sys.path[0]"
  bool operator==(const Shadow&) const = default;
};

// What `import FRAMEWORK` said in a real, isolated interpreter (--deep).
struct DeepReport {
  Framework framework = Framework::torch;
  bool imported = false;
  std::string error;             // the exception or failure ("" when imported)
  std::string version;
  Known<bool> gpu_available;     // torch.cuda.is_available(), a GPU device in tf/jax, CUDA provider in ort
  Known<int> device_count;
  std::string cuda_version;      // what the framework reports (torch.version.cuda)
  std::vector<std::string> warnings;  // warning text it printed
  bool operator==(const DeepReport&) const = default;
};

struct PythonEnvironment {
  std::string interpreter;  // as found: "/home/u/venv/bin/python"
  InterpreterOrigin origin = InterpreterOrigin::path;
  std::string label;        // "the venv /home/u/venv", "/usr/bin/python3"
  std::string version;      // "3.11"
  std::string prefix;       // sys.prefix
  Known<std::vector<std::string>> sys_path;
  SysPathSource sys_path_source = SysPathSource::executed;
  // Where sys.path may differ from what the interpreter would say: a .pth import line not run, a
  // ._pth file, a difference --deep's interpreter showed.
  std::vector<std::string> sys_path_notes;
  std::vector<Distribution> distributions;
  std::vector<FrameworkBuild> builds;  // every copy found, in sys.path order
  std::vector<Shadow> shadows;
  // conda: PREFIX/conda-meta when the prefix has one ("" otherwise), and the packages listed there.
  std::string conda_meta;
  Known<std::vector<CondaPackage>> conda_packages = Known<std::vector<CondaPackage>>::unknown("not a conda environment");
  Known<std::vector<DeepReport>> deep = Known<std::vector<DeepReport>>::unknown("--deep not requested");
  bool operator==(const PythonEnvironment&) const = default;
};

struct FrameworkFacts {
  Known<std::string> cwd;  // the working directory imports would see first
  Known<std::vector<PythonEnvironment>> environments;
  bool operator==(const FrameworkFacts&) const = default;
};

void to_json(nlohmann::json& j, const FrameworkFacts& f);
void from_json(const nlohmann::json& j, FrameworkFacts& f);
void to_json(nlohmann::json& j, const PythonEnvironment& e);
void from_json(const nlohmann::json& j, PythonEnvironment& e);

}  // namespace gpudoctor::facts
