// TensorFlow writes its build configuration into tensorflow/python/platform/build_info.py
// (tensorflow/tools/build_info/gen_build_info.py): `build_info = collections.OrderedDict([...])`
// with is_cuda_build, is_rocm_build, cuda_version, cudnn_version. The CPU-only package is a
// separate distribution, tensorflow-cpu, with the same import name; `tensorflow[and-cuda]` adds the
// nvidia-*-cu12 wheels (tensorflow/tools/pip_package/setup.py).
#include <probe/frameworks/framework_probe.hpp>

#include <probe/python_literals.hpp>
#include <util/path.hpp>

#include <fmt/format.h>

namespace gpudoctor::probe::frameworks {

void read_tensorflow(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b) {
  for (auto name : {"tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tf-nightly", "tf-nightly-cpu",
                    "tensorflow-intel", "tensorflow-cpu-aws", "intel-tensorflow", "tensorflow-rocm"}) {
    if (const auto* d = find_distribution(site, name)) {
      b.distribution = d->name;
      b.version = d->version;
      break;
    }
  }
  auto path = util::join_path(b.package_dir, "python/platform/build_info.py");
  auto text = fs.read_text(path, 64 * 1024);
  if (!text) {
    b.evidence.push_back(fmt::format("{}: {}", path, text.error().message));
    if (b.distribution.ends_with("-cpu") || b.distribution == "tensorflow-cpu-aws") b.kind = facts::BuildKind::cpu;
  } else {
    auto pairs = parse_py_pairs(*text);
    auto get = [&](std::string_view k) {
      auto it = pairs.find(k);
      return it == pairs.end() ? std::string() : it->second;
    };
    auto is_cuda = get("is_cuda_build");
    auto is_rocm = get("is_rocm_build");
    b.cuda_version = get("cuda_version");
    b.cudnn_version = get("cudnn_version");
    b.evidence.push_back(fmt::format("{}: is_cuda_build = {}, is_rocm_build = {}, cuda_version = '{}', "
                                     "cudnn_version = '{}'",
                                     path, is_cuda.empty() ? "(absent)" : is_cuda,
                                     is_rocm.empty() ? "(absent)" : is_rocm, b.cuda_version, b.cudnn_version));
    if (is_cuda == "True") b.kind = facts::BuildKind::cuda;
    else if (is_rocm == "True") b.kind = facts::BuildKind::rocm;
    else if (is_cuda == "False") b.kind = facts::BuildKind::cpu;
  }
  b.companions = nvidia_wheels(fs, site);
}

}  // namespace gpudoctor::probe::frameworks
