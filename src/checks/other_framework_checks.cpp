// TensorFlow, JAX, ONNX Runtime, PaddlePaddle, the loader's view of every GPU build, and --deep.
// Sources: TensorFlow's pip guide (tensorflow-cpu is the CPU-only package; `tensorflow[and-cuda]`
// brings the CUDA libraries); JAX's installation guide (jaxlib alone is CPU-only since 0.4.30:
// `jax[cuda12]`); ONNX Runtime's install guide and issue #7748 (onnxruntime and onnxruntime-gpu
// write the same onnxruntime/ directory, so only one may be installed); Paddle's version module
// (cuda_version 'False' on CPU builds).
#include <checks/framework_check_fns.hpp>

#include <checks/environment_view.hpp>
#include <checks/framework_view.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace gpudoctor::checks::framework {
namespace {

using facts::BuildKind;
using facts::Framework;


std::string label(const facts::FrameworkBuild& b) {
  auto name = b.distribution.empty() ? std::string(to_string(b.framework)) : b.distribution;
  return b.version.empty() ? name : name + " " + b.version;
}

void cpu_build_finding(const Facts& f, FindingSink& out, Framework fw, const std::string& fix_template) {
  FrameworkView v(f);
  // A machine whose PCI bus was not read (a described one) may well have a GPU.
  bool gpu = v.nvidia_gpu() || v.amd_gpu() || !EnvironmentView(f.environment).pci_known();
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, fw);
    if (!b || b->kind != BuildKind::cpu) continue;
    auto fix = gpu ? fmt::format(fmt::runtime(fix_template), fmt::arg("pip", pip_command(env)))
                   : std::string("Nothing to change on this machine (it has no GPU).");
    auto& finding = out.emit(fmt::format("{} in {} is a CPU-only build.", label(*b), environment_name(env)), build_evidence(env, *b), fix);
    if (!gpu) finding.severity = Severity::info;
  }
}

// The nvidia-* wheel that would provide a soname, for the evidence ("libcudnn.so.8" -> "nvidia-cudnn").
std::vector<std::string> providers_of(const facts::PythonEnvironment& env, std::string_view soname) {
  std::vector<std::string> out;
  auto stem = soname.substr(3, soname.find(".so") - 3);  // "libcudnn.so.8" -> "cudnn"
  std::string lowered;
  for (char c : stem) lowered.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  if (lowered == "cudart") lowered = "cuda-runtime";
  if (lowered == "cublaslt") lowered = "cublas";
  for (const auto& d : env.distributions) {
    if (d.name.starts_with("nvidia-" + lowered)) out.push_back(fmt::format("{} {} is installed", d.name, d.version));
  }
  return out;
}

std::vector<std::string> unresolved_evidence(const facts::PythonEnvironment& env, const facts::FrameworkBuild& b) {
  std::vector<std::string> ev;
  for (const auto& r : b.unresolved_libraries) {
    ev.push_back(fmt::format("{} (needed by {}): not found", r.soname, r.requested_by));
    std::size_t shown = 0;
    for (const auto& t : r.tried) {
      if (shown++ == 6) break;
      ev.push_back(fmt::format("  tried {}{}", t.path, t.rejected.empty() ? "" : ": " + t.rejected));
    }
    for (auto& p : providers_of(env, r.soname)) ev.push_back("  " + p + ", but not the version this soname names");
  }
  return ev;
}

std::string sonames(const facts::FrameworkBuild& b) {
  std::vector<std::string> names;
  for (const auto& r : b.unresolved_libraries) names.push_back(r.soname);
  return util::join(names, ", ");
}

}  // namespace

void tf_cpu_only_build(const Facts& f, FindingSink& out) {
  cpu_build_finding(f, out, Framework::tensorflow,
                    "Replace it with the CUDA build: `{pip} uninstall -y tensorflow-cpu tensorflow && {pip} install "
                    "'tensorflow[and-cuda]'`.");
}

// TensorFlow's install page: "Anything above 2.10 is not supported on the GPU on Windows Native"
// (https://www.tensorflow.org/install/pip, Windows Native). Only a described machine (explain) can be
// native Windows: gpudoctor itself runs on Linux, where WSL counts as Linux.
void tf_windows_native_no_gpu(const Facts& f, FindingSink& out) {
  if (!f.meta.os_pretty_name || !f.meta.os_pretty_name->starts_with("Microsoft Windows")) return;
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    for (const auto* b : FrameworkView::builds(env, Framework::tensorflow)) {
      auto version = util::parse_version(util::split(b->version, '+').front());
      if (!version || util::compare_versions(*version, {2, 11}) < 0) continue;
      auto ev = b->evidence;
      ev.push_back("the OS: " + *f.meta.os_pretty_name);
      out.emit(fmt::format("TensorFlow {} has no GPU support on native Windows: the last release that used an NVIDIA "
                           "GPU there was 2.10.",
                           b->version),
               std::move(ev));
    }
  }
}

void jax_cpu_only(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  auto driver = v.driver_cuda_version();
  std::string extra = driver && *driver >= 13000 ? "cuda13" : "cuda12";
  cpu_build_finding(f, out, Framework::jax,
                    "jaxlib alone runs on the CPU; add the CUDA plugin: `{pip} install -U 'jax[" + extra + "]'`.");
}

void paddle_cpu_only_build(const Facts& f, FindingSink& out) {
  cpu_build_finding(f, out, Framework::paddle,
                    "Replace paddlepaddle with paddlepaddle-gpu for this CUDA version (the command for each CUDA "
                    "version is on https://www.paddlepaddle.org.cn/en/install/quick): `{pip} uninstall -y "
                    "paddlepaddle`, then install paddlepaddle-gpu from there.");
}

// The soname level a CUDA version is loaded by: "10.1" before CUDA 11 (libcudart.so.10.1), "11"
// from 11 on (libcudart.so.11.0 serves every 11.x).
std::string soname_level(std::string_view cuda) {
  auto v = util::parse_version(cuda);
  if (!v || v->empty()) return {};
  if ((*v)[0] >= 11 || v->size() < 2) return std::to_string((*v)[0]);
  return fmt::format("{}.{}", (*v)[0], (*v)[1]);
}

// A TensorFlow built for one CUDA on a machine whose only CUDA toolkit is another: the libraries it
// dlopens by soname are not there (the loader's view, when read, says the same more precisely).
void tf_toolkit_mismatch(const Facts& f, const facts::PythonEnvironment& env, const facts::FrameworkBuild& b,
                         FindingSink& out) {
  const auto& toolkit = f.environment.libraries.cuda_toolkit_version;
  if (!toolkit || b.cuda_version.empty()) return;
  auto need = soname_level(b.cuda_version), have = soname_level(*toolkit);
  if (need.empty() || have.empty() || need == have) return;
  auto ev = build_evidence(env, b);
  ev.push_back(fmt::format("the CUDA toolkit installed: {}", *toolkit));
  out.emit(fmt::format("{} loads the CUDA {} libraries by name (libcudart.so.{}); the CUDA installed is {}, so they are "
                       "not found and TensorFlow runs on the CPU only (\"Could not load dynamic library\").",
                       label(b), b.cuda_version, need, *toolkit),
           std::move(ev),
           fmt::format("Install CUDA {} and cuDNN {} (they may sit beside CUDA {}), or install the TensorFlow release "
                       "built for CUDA {} (https://www.tensorflow.org/install/source#gpu).",
                       b.cuda_version, b.cudnn_version, *toolkit, *toolkit));
}

void tf_missing_gpu_libs(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::tensorflow);
    if (!b || b->kind != BuildKind::cuda) continue;
    if (b->unresolved_libraries.empty()) {
      tf_toolkit_mismatch(f, env, *b, out);
      continue;
    }
    auto ev = build_evidence(env, *b);
    auto more = unresolved_evidence(env, *b);
    ev.insert(ev.end(), more.begin(), more.end());
    out.emit(fmt::format("{} needs {}; the loader cannot resolve {}: TensorFlow will run on the CPU only (\"Could "
                         "not load dynamic library\").",
                         label(*b), sonames(*b), b->unresolved_libraries.size() == 1 ? "it" : "them"),
             std::move(ev),
             fmt::format("Install the CUDA libraries this build was made for: `{} install '{}[and-cuda]=={}'`, or put "
                         "CUDA {} and cuDNN {} on the loader's path.",
                         pip_command(env), b->distribution.empty() ? "tensorflow" : b->distribution,
                         public_version(b->version), b->cuda_version, b->cudnn_version));
  }
}

void ort_cpu_package_shadows_gpu(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::onnxruntime);
    if (!b) continue;
    std::vector<std::string> cpu;
    std::vector<std::string> gpu;
    for (const auto& c : b->companions) {
      auto name = c.substr(0, c.find(' '));
      if (name == "onnxruntime") cpu.push_back(c);
      else if (name == "onnxruntime-gpu" || name == "ort-nightly-gpu") gpu.push_back(c);
    }
    if (cpu.empty() || gpu.empty()) continue;
    auto ev = build_evidence(env, *b);
    for (const auto& c : cpu) ev.push_back("installed: " + c + " (CPU)");
    for (const auto& g : gpu) ev.push_back("installed: " + g + " (GPU)");
    out.emit(fmt::format("onnxruntime and onnxruntime-gpu are both installed in {}: they share the onnxruntime/ "
                         "directory, and the CPU package wins the import (get_available_providers() lacks "
                         "CUDAExecutionProvider).",
                         environment_name(env)),
             std::move(ev),
             fmt::format("Remove both, then install the GPU package alone: `{0} uninstall -y onnxruntime "
                         "onnxruntime-gpu && {0} install onnxruntime-gpu`.",
                         pip_command(env)));
  }
}

void ort_cuda_provider_libs_missing(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    const auto* b = FrameworkView::imported(env, Framework::onnxruntime);
    if (!b || b->kind != BuildKind::cuda || b->unresolved_libraries.empty()) continue;
    auto ev = build_evidence(env, *b);
    auto more = unresolved_evidence(env, *b);
    ev.insert(ev.end(), more.begin(), more.end());
    out.emit(fmt::format("{}'s CUDA execution provider needs {}, which the loader cannot resolve: sessions fall back "
                         "to the CPU (\"Failed to load library libonnxruntime_providers_cuda.so\").",
                         label(*b), sonames(*b)),
             std::move(ev),
             fmt::format("Install the CUDA and cuDNN versions this onnxruntime-gpu needs (the table in "
                         "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), "
                         "e.g. `{} install 'onnxruntime-gpu[cuda,cudnn]'` on 1.19 and later, or import torch first so "
                         "that its CUDA libraries are loaded.",
                         pip_command(env)));
  }
}

void toolchain_lib_unresolved(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    for (const auto& b : env.builds) {
      // TensorFlow's and ONNX Runtime's own findings say this for them.
      if (b.framework == Framework::tensorflow || b.framework == Framework::onnxruntime) continue;
      if (b.unresolved_libraries.empty() || &b != FrameworkView::imported(env, b.framework)) continue;
      auto ev = build_evidence(env, b);
      auto more = unresolved_evidence(env, b);
      ev.insert(ev.end(), more.begin(), more.end());
      out.emit(fmt::format("{} links {}, which the dynamic loader cannot resolve: `import {}` fails or runs without "
                           "the GPU.",
                           label(b), sonames(b), to_string(b.framework)),
               std::move(ev));
    }
  }
}

void toolchain_multiple_cuda_runtimes(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    std::map<std::string, std::vector<std::string>> files;  // resolved file -> builds using it
    for (const auto& b : env.builds) {
      if (&b != FrameworkView::imported(env, b.framework)) continue;
      for (const auto& r : b.cuda_runtimes) files[r.substr(r.find(" -> ") + 4)].push_back(label(b));
    }
    if (files.size() < 2) continue;
    std::vector<std::string> ev;
    for (const auto& [file, users] : files) ev.push_back(fmt::format("{} for {}", file, util::join(users, ", ")));
    out.emit(fmt::format("{} resolve the CUDA runtime to {} different files: in one process the first one loaded "
                         "serves every later request of the same soname, and different sonames load side by side.",
                         environment_name(env), files.size()),
             std::move(ev));
  }
}

void python_sys_path_unknown(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    if (env.sys_path) continue;
    out.emit(fmt::format("gpudoctor could not learn sys.path of {}, so its frameworks were not examined.", environment_name(env)),
             {env.sys_path.why()});
  }
}

void deep_disagrees_with_static(const Facts& f, FindingSink& out) {
  FrameworkView v(f);
  for (const auto& env : v.environments()) {
    if (!env.deep) continue;
    for (const auto& d : *env.deep) {
      const auto* b = FrameworkView::imported(env, d.framework);
      if (!b) continue;
      std::vector<std::string> ev = {
          fmt::format("static: {} at {}, a {} build{}", label(*b), b->package_dir, to_string(b->kind),
                      b->cuda_version.empty() ? "" : " for CUDA " + b->cuda_version)};
      std::vector<std::string> differences;
      if (!d.imported) {
        differences.push_back(fmt::format("`import {}` failed: {}", to_string(d.framework), d.error));
      } else {
        if (!d.version.empty() && !b->version.empty() && public_version(d.version) != public_version(b->version)) {
          differences.push_back(fmt::format("it imported version {}, not {}", d.version, b->version));
        }
        if (d.framework == Framework::torch && d.cuda_version != b->cuda_version) {
          differences.push_back(fmt::format("torch.version.cuda is {}, the files say {}",
                                            d.cuda_version.empty() ? "None" : d.cuda_version,
                                            b->cuda_version.empty() ? "None" : b->cuda_version));
        }
        bool gpu_here = b->kind == BuildKind::cuda ? v.nvidia_gpu() : b->kind == BuildKind::rocm ? v.amd_gpu() : false;
        bool predicted = gpu_here && b->unresolved_libraries.empty();
        if (d.gpu_available && *d.gpu_available != predicted) {
          differences.push_back(fmt::format("it reports the GPU {}available; the static reading predicted {}",
                                            *d.gpu_available ? "" : "not ", predicted ? "a usable GPU" : "no GPU"));
        }
      }
      if (differences.empty()) continue;
      ev.push_back(fmt::format("deep: imported={}, version {}, GPU available {}, devices {}", d.imported ? "yes" : "no",
                               d.version.empty() ? "?" : d.version,
                               d.gpu_available ? (*d.gpu_available ? "yes" : "no") : "not asked",
                               d.device_count ? std::to_string(*d.device_count) : "?"));
      for (const auto& w : d.warnings) ev.push_back("printed: " + w);
      out.emit(fmt::format("Importing {} in {} disagrees with what its files say: {}.", to_string(d.framework),
                           environment_name(env), util::join(differences, "; ")),
               std::move(ev));
    }
  }
}

}  // namespace gpudoctor::checks::framework
