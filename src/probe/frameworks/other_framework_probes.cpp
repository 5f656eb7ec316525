// JAX, ONNX Runtime, PaddlePaddle, CuPy and TensorRT: each says which accelerator it can drive in
// how it is packaged more than in a generated file.
//  - JAX: since jaxlib 0.4.30 jaxlib is CPU-only and CUDA comes from the jax-cuda12-plugin /
//    jax-cuda12-pjrt distributions (jax_plugins/xla_cuda12/xla_cuda_plugin.so); older GPU jaxlibs
//    carried a "+cuda12.cudnn89" local version (jax CHANGELOG.md).
//  - ONNX Runtime: onnxruntime and onnxruntime-gpu install the same onnxruntime/ directory; the CUDA
//    provider is capi/libonnxruntime_providers_cuda.so (microsoft/onnxruntime setup.py).
//  - Paddle: paddle/version/__init__.py sets cuda_version = 'False' (a string) on CPU builds
//    (setup.py write_version_py).
//  - CuPy: the distribution name says the CUDA major (cupy-cuda12x) or ROCm (cupy-rocm-6-0).
#include <probe/frameworks/framework_probe.hpp>

#include <probe/python_literals.hpp>
#include <util/path.hpp>

#include <fmt/format.h>

namespace gpudoctor::probe::frameworks {
namespace {

std::string add_version(const facts::Distribution& d) { return d.name + " " + d.version; }

}  // namespace

void read_jax(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b) {
  if (const auto* d = find_distribution(site, "jax")) {
    b.distribution = d->name;
    b.version = d->version;
  }
  const auto* jaxlib = find_distribution(site, "jaxlib");
  if (jaxlib) {
    b.evidence.push_back(fmt::format("jaxlib {} in {}", jaxlib->version, site.site_dir));
    if (jaxlib->version.find("+cuda") != std::string::npos) {
      b.kind = facts::BuildKind::cuda;
      auto v = jaxlib->version.substr(jaxlib->version.find("+cuda") + 5);
      b.cuda_version = v.substr(0, v.find('.'));
    } else if (jaxlib->version.find("+rocm") != std::string::npos) {
      b.kind = facts::BuildKind::rocm;
    } else {
      b.kind = facts::BuildKind::cpu;
    }
  } else {
    b.evidence.push_back(fmt::format("no jaxlib distribution in {}", site.site_dir));
  }
  for (const auto& d : *site.distributions) {
    if (d.name.starts_with("jax-cuda") || d.name.starts_with("jax-rocm")) b.companions.push_back(add_version(d));
  }
  auto plugins = fs.list_dir(util::join_path(site.site_dir, "jax_plugins"));
  if (!plugins) return;
  for (const auto& e : *plugins) {
    bool cuda = e.name.starts_with("xla_cuda");
    bool rocm = e.name.starts_with("xla_rocm");
    if (!cuda && !rocm) continue;
    auto dir = util::join_path(util::join_path(site.site_dir, "jax_plugins"), e.name);
    auto so = util::join_path(dir, cuda ? "xla_cuda_plugin.so" : "xla_rocm_plugin.so");
    if (!fs.exists(so)) {
      b.evidence.push_back(fmt::format("{} has no {}", dir, util::base_name(so)));
      continue;
    }
    b.gpu_libraries.push_back(so);
    b.kind = cuda ? facts::BuildKind::cuda : facts::BuildKind::rocm;
    if (cuda) b.cuda_version = e.name.substr(8);  // "xla_cuda12" -> "12"
  }
}

void read_onnxruntime(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b) {
  for (const auto& d : *site.distributions) {
    if (d.name == "onnxruntime" || d.name.starts_with("onnxruntime-") || d.name.starts_with("ort-nightly")) {
      b.companions.push_back(add_version(d));
      if (b.distribution.empty() || d.name.ends_with("-gpu")) {
        b.distribution = d.name;
        b.version = d.version;
      }
    }
  }
  auto capi = util::join_path(b.package_dir, "capi");
  bool cuda = false;
  bool rocm = false;
  for (auto name : {"libonnxruntime_providers_cuda.so", "libonnxruntime_providers_tensorrt.so",
                    "libonnxruntime_providers_rocm.so", "libonnxruntime_providers_migraphx.so"}) {
    auto path = util::join_path(capi, name);
    if (!fs.exists(path)) continue;
    b.gpu_libraries.push_back(path);
    std::string_view n = name;
    cuda = cuda || n.find("cuda") != std::string_view::npos;
    rocm = rocm || n.find("rocm") != std::string_view::npos || n.find("migraphx") != std::string_view::npos;
  }
  b.kind = cuda ? facts::BuildKind::cuda : rocm ? facts::BuildKind::rocm : facts::BuildKind::cpu;
  b.evidence.push_back(fmt::format("{}: {}", capi,
                                   b.gpu_libraries.empty() ? std::string("no GPU execution provider library")
                                                           : "GPU execution provider libraries present"));
  if (auto info = fs.read_text(util::join_path(capi, "build_and_package_info.py"), 16 * 1024)) {
    auto a = parse_py_assignments(*info);
    if (auto it = a.find("cuda_version"); it != a.end()) b.cuda_version = it->second;
  }
}

void read_paddle(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b) {
  for (auto name : {"paddlepaddle-gpu", "paddlepaddle"}) {
    if (const auto* d = find_distribution(site, name)) {
      b.distribution = d->name;
      b.version = d->version;
      break;
    }
  }
  auto path = util::join_path(b.package_dir, "version/__init__.py");
  auto text = fs.read_text(path, 64 * 1024);
  if (!text) {
    b.evidence.push_back(fmt::format("{}: {}", path, text.error().message));
    return;
  }
  auto a = parse_py_assignments(*text);
  if (auto it = a.find("full_version"); it != a.end()) b.version = it->second;
  auto cuda = a.contains("cuda_version") ? a.at("cuda_version") : std::string();
  auto cudnn = a.contains("cudnn_version") ? a.at("cudnn_version") : std::string();
  b.evidence.push_back(fmt::format("{}: cuda_version = '{}', cudnn_version = '{}'", path, cuda, cudnn));
  if (cuda == "False") {
    b.kind = facts::BuildKind::cpu;
  } else if (!cuda.empty()) {
    b.kind = facts::BuildKind::cuda;
    b.cuda_version = cuda;
    if (cudnn != "False") b.cudnn_version = cudnn;
  }
}

void read_cupy(const sys::FileSystem& /*fs*/, const SiteContext& site, facts::FrameworkBuild& b) {
  for (const auto& d : *site.distributions) {
    if (d.name != "cupy" && !d.name.starts_with("cupy-cuda") && !d.name.starts_with("cupy-rocm")) continue;
    b.companions.push_back(add_version(d));
    if (!b.distribution.empty()) continue;
    b.distribution = d.name;
    b.version = d.version;
    if (d.name.starts_with("cupy-cuda")) {
      b.kind = facts::BuildKind::cuda;
      auto tag = d.name.substr(9);  // "12x", "117"
      b.cuda_version = tag.ends_with('x') ? tag.substr(0, tag.size() - 1) : tag;
    } else if (d.name.starts_with("cupy-rocm")) {
      b.kind = facts::BuildKind::rocm;
    }
  }
}

void read_tensorrt(const sys::FileSystem& /*fs*/, const SiteContext& site, facts::FrameworkBuild& b) {
  for (const auto& d : *site.distributions) {
    if (d.name != "tensorrt" && !d.name.starts_with("tensorrt-")) continue;
    b.companions.push_back(add_version(d));
    if (b.distribution.empty()) {
      b.distribution = d.name;
      b.version = d.version;
    }
  }
  b.kind = facts::BuildKind::cuda;  // TensorRT exists only for NVIDIA GPUs
}

}  // namespace gpudoctor::probe::frameworks
