#include <facts/framework_facts.hpp>

#include <util/json_number.hpp>

namespace gpudoctor::facts {

const char* to_string(Framework f) {
  switch (f) {
    case Framework::torch: return "torch";
    case Framework::tensorflow: return "tensorflow";
    case Framework::jax: return "jax";
    case Framework::onnxruntime: return "onnxruntime";
    case Framework::paddle: return "paddle";
    case Framework::cupy: return "cupy";
    case Framework::tensorrt: return "tensorrt";
  }
  return "?";
}

const char* to_string(BuildKind k) {
  switch (k) {
    case BuildKind::unknown: return "unknown";
    case BuildKind::cpu: return "CPU-only";
    case BuildKind::cuda: return "CUDA";
    case BuildKind::rocm: return "ROCm";
    case BuildKind::xpu: return "XPU";
  }
  return "?";
}

GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(Distribution, name, version, metadata_dir)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(FrameworkBuild, framework, package_dir, sys_path_index, distribution,
                                                version, kind, cuda_version, rocm_version, cudnn_version,
                                                gpu_libraries, companions, evidence,
                                                unresolved_libraries, cuda_runtimes, loader_notes, kernel_images,
                                                installer)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(CondaPackage, name, version, build)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(Shadow, module, path, where)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(DeepReport, framework, imported, error, version, gpu_available,
                                                device_count, cuda_version, warnings)

void to_json(nlohmann::json& j, const PythonEnvironment& e) {
  j = nlohmann::json{{"interpreter", e.interpreter},
                     {"origin", e.origin},
                     {"label", e.label},
                     {"version", e.version},
                     {"prefix", e.prefix},
                     {"sys_path", e.sys_path},
                     {"sys_path_source", e.sys_path_source},
                     {"sys_path_notes", e.sys_path_notes},
                     {"distributions", e.distributions},
                     {"builds", e.builds},
                     {"shadows", e.shadows},
                     {"conda_meta", e.conda_meta},
                     {"conda_packages", e.conda_packages},
                     {"deep", e.deep}};
}

void from_json(const nlohmann::json& j, PythonEnvironment& e) {
  PythonEnvironment d;
  e.interpreter = j.value("interpreter", d.interpreter);
  e.origin = j.value("origin", d.origin);
  e.label = j.value("label", d.label);
  e.version = j.value("version", d.version);
  e.prefix = j.value("prefix", d.prefix);
  e.sys_path = j.value("sys_path", d.sys_path);
  e.sys_path_source = j.value("sys_path_source", d.sys_path_source);
  e.sys_path_notes = j.value("sys_path_notes", d.sys_path_notes);
  e.distributions = j.value("distributions", d.distributions);
  e.builds = j.value("builds", d.builds);
  e.shadows = j.value("shadows", d.shadows);
  e.conda_meta = j.value("conda_meta", d.conda_meta);
  e.conda_packages = j.value("conda_packages", d.conda_packages);
  e.deep = j.value("deep", d.deep);
}

void to_json(nlohmann::json& j, const FrameworkFacts& f) {
  j = nlohmann::json{{"cwd", f.cwd}, {"environments", f.environments}};
}

void from_json(const nlohmann::json& j, FrameworkFacts& f) {
  FrameworkFacts d;
  f.cwd = j.value("cwd", d.cwd);
  f.environments = j.value("environments", d.environments);
}

}  // namespace gpudoctor::facts
