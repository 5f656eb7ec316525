// libFuzzer target for what gpudoctor reads of a Python environment, all from files it did not
// write: pyvenv.cfg, .pth files, dist-info METADATA / RECORD / direct_url.json, conda-meta JSON,
// torch/version.py and the other frameworks' build files. The input is cut at each "\n@@\n" into the contents of those files in a fixed layout,
// served by the in-memory file system; then sys.path is read from the layout and the environment
// scanned, as `check` does.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <probe/python_probe.hpp>
#include <sys/memory_file_system.hpp>

namespace {

constexpr const char* k_files[] = {
    "/env/pyvenv.cfg",
    "/env/lib/python3.11/site-packages/a.pth",
    "/env/lib/python3.11/site-packages/torch-2.3.0.dist-info/METADATA",
    "/env/lib/python3.11/site-packages/torch-2.3.0.dist-info/RECORD",
    "/env/lib/python3.11/site-packages/torch-2.3.0.dist-info/direct_url.json",
    "/env/lib/python3.11/site-packages/torch/version.py",
    "/env/lib/python3.11/site-packages/tensorflow/python/platform/build_info.py",
    "/env/lib/python3.11/site-packages/jax/version.py",
    "/env/conda-meta/pytorch-2.3.0-py3.11_cuda12.1_0.json",
    "/env/lib/python3.11/site-packages/onnxruntime/capi/version_info.py",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> files = {
      {"/base/lib/python3.11/os.py", ""},
      {"/env/bin/python3.11", "\x7f" "ELF"},
      {"/env/lib/python3.11/site-packages/torch/__init__.py", ""},
      {"/env/lib/python3.11/site-packages/tensorflow/__init__.py", ""},
  };
  std::size_t i = 0;
  for (const char* path : k_files) {
    std::size_t cut = text.find("\n@@\n");
    files[path] = std::string(text.substr(0, cut));
    text = cut == std::string_view::npos ? std::string_view() : text.substr(cut + 4);
    ++i;
  }
  auto fs = gpudoctor::sys::make_memory_file_system(files);
  std::map<std::string, std::string> env = {{"HOME", "/home/u"}};
  auto info = gpudoctor::probe::static_interpreter_info(*fs, "/env/bin/python3.11", env);
  gpudoctor::facts::PythonEnvironment e;
  e.interpreter = "/env/bin/python3.11";
  e.prefix = "/env";
  if (info) e.sys_path = info->sys_path;
  else e.sys_path = std::vector<std::string>{"/env/lib/python3.11/site-packages"};
  gpudoctor::probe::scan_python_environment(*fs, "/", e);
  gpudoctor::probe::read_conda_meta(*fs, e);
  return 0;
}
