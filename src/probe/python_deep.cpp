// --deep: each framework is imported in its own child interpreter, isolated (-I: no PYTHON*
// variables, no user site, nothing from the working directory), started in a fresh empty
// directory so that no module of the user's project can be picked up, with a timeout. One child
// per framework: two CUDA frameworks in one process can disturb each other's initialisation, and a
// hang in one must not hide the others. Each child prints one JSON line.
#include <probe/python_probe.hpp>
#include <sys/archive.hpp>
#include <sys/subprocess.hpp>
#include <util/json_number.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <future>
#include <set>

namespace gpudoctor::probe {
namespace {

constexpr std::string_view k_deep_prelude = R"PY(
import sys, json, warnings
warnings.simplefilter("always")
r = {"framework": NAME, "imported": False}
def gpu_probe():
    if NAME == "torch":
        import torch
        r.update(version=torch.__version__, cuda_version=torch.version.cuda or "")
        r["gpu_available"] = bool(torch.cuda.is_available())
        r["device_count"] = int(torch.cuda.device_count())
    elif NAME == "tensorflow":
        import tensorflow as tf
        g = tf.config.list_physical_devices("GPU")
        r.update(version=tf.__version__, gpu_available=len(g) > 0, device_count=len(g),
                 cuda_version=str(tf.sysconfig.get_build_info().get("cuda_version", "")))
    elif NAME == "jax":
        import jax
        try:
            g = [d for d in jax.devices() if d.platform in ("gpu", "cuda", "rocm")]
        except RuntimeError as e:
            g = []
            r["warnings"] = [str(e)]
        r.update(version=jax.__version__, gpu_available=len(g) > 0, device_count=len(g))
    elif NAME == "onnxruntime":
        import onnxruntime as o
        p = o.get_available_providers()
        r.update(version=o.__version__, gpu_available=any(x in p for x in ("CUDAExecutionProvider", "ROCMExecutionProvider")))
    elif NAME == "paddle":
        import paddle
        n = paddle.device.cuda.device_count() if paddle.is_compiled_with_cuda() else 0
        r.update(version=paddle.__version__, gpu_available=n > 0, device_count=int(n))
    elif NAME == "cupy":
        import cupy
        r["version"] = cupy.__version__
        n = cupy.cuda.runtime.getDeviceCount()
        r.update(gpu_available=n > 0, device_count=int(n))
    elif NAME == "tensorrt":
        import tensorrt
        r["version"] = tensorrt.__version__
    r["imported"] = True
with warnings.catch_warnings(record=True) as caught:
    try:
        gpu_probe()
    except BaseException as e:
        r["error"] = "%s: %s" % (type(e).__name__, e)
r.setdefault("warnings", [])
r["warnings"] += [str(w.message) for w in caught]
sys.stdout.write("\n" + json.dumps(r) + "\n")
)PY";

facts::DeepReport import_one(const std::string& interpreter, facts::Framework framework, const std::string& cwd,
                             int timeout_ms) {
  facts::DeepReport d;
  d.framework = framework;
  sys::ProcessOptions o;
  auto script = fmt::format("NAME = '{}'\n{}", facts::to_string(framework), k_deep_prelude);
  o.argv = {interpreter, "-I", "-c", script};
  o.cwd = cwd;
  o.timeout = std::chrono::milliseconds(timeout_ms);
  o.output_limit = 1 << 20;
  auto r = sys::run_process(o);
  if (!r) {
    d.error = r.error().message;
    return d;
  }
  if (r->timed_out) {
    d.error = fmt::format("import did not finish in {} ms", timeout_ms);
    return d;
  }
  auto reports = parse_deep_output(r->out);
  if (reports.empty()) {
    d.error = r->term_signal ? fmt::format("the interpreter died of {}", sys::signal_name(r->term_signal))
                             : fmt::format("no report (exit {})", r->exit_code);
  } else {
    d = reports.back();
  }
  // Text the framework printed itself (C++ warnings, "CUDA initialization: ...").
  int kept = 0;
  for (auto line : util::lines(r->err)) {
    auto t = util::trim(line);
    if (t.empty() || kept++ >= 20) continue;
    d.warnings.push_back(util::sanitize_utf8(t));
  }
  return d;
}

}  // namespace

std::vector<facts::DeepReport> parse_deep_output(std::string_view out) {
  std::vector<facts::DeepReport> reports;
  for (auto line : util::lines(out)) {
    if (!line.starts_with("{\"framework\"")) continue;
    auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) continue;
    facts::DeepReport d;
    try {
      d.framework = j.at("framework").get<facts::Framework>();
      d.imported = j.value("imported", false);
      d.error = j.value("error", "");
      d.version = j.value("version", "");
      d.cuda_version = j.value("cuda_version", "");
      if (j.contains("gpu_available") && j["gpu_available"].is_boolean()) d.gpu_available = j["gpu_available"].get<bool>();
      else d.gpu_available = facts::Known<bool>::unknown("the framework was not asked");
      if (j.contains("device_count") && j["device_count"].is_number_integer()) d.device_count = util::json_number<int>(j["device_count"]);
      else d.device_count = facts::Known<int>::unknown("the framework was not asked");
      if (j.contains("warnings") && j["warnings"].is_array()) {
        for (const auto& w : j["warnings"]) {
          if (w.is_string()) d.warnings.push_back(util::sanitize_utf8(w.get<std::string>()));
        }
      }
    } catch (const nlohmann::json::exception&) {
      continue;
    }
    reports.push_back(std::move(d));
  }
  return reports;
}

facts::Known<std::vector<facts::DeepReport>> run_deep_import(const facts::PythonEnvironment& env, int timeout_ms) {
  using Result = facts::Known<std::vector<facts::DeepReport>>;
  if (!env.sys_path) return Result::unknown("sys.path is unknown: " + env.sys_path.why());
  std::set<facts::Framework> frameworks;
  for (const auto& b : env.builds) frameworks.insert(b.framework);
  auto dir = sys::TempDir::create("gpudoctor-deep-");
  if (!dir) return Result::unknown(dir.error().message);
  std::vector<std::future<facts::DeepReport>> children;
  for (auto fw : frameworks) {
    children.push_back(std::async(std::launch::async, import_one, env.interpreter, fw, dir->path(), timeout_ms));
  }
  std::vector<facts::DeepReport> out;
  for (auto& c : children) out.push_back(c.get());
  return out;
}

}  // namespace gpudoctor::probe
