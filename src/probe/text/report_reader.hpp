// Report readers: probes over a text source. People describe a machine by pasting what tools
// printed on it (nvidia-smi, python -m torch.utils.collect_env, pip list, conda list,
// /proc/driver/nvidia/version, torch.__version__ in a REPL) into an issue.
// ReportReader reads those dumps, wherever they stand in a text and however the issue page
// wrapped them (Markdown quotes, code fences, table pipes, HTML entities, ANSI colours), into the
// same facts::Facts the live probes fill. Every field the text did not show keeps its default
// "not probed" unknown; the checks then judge a described machine exactly as a probed one.
//
// Lines are fed one at a time, so a 1 GB log costs the longest line, not the log. Thread-safety:
// one reader per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <facts/facts.hpp>

namespace gpudoctor::probe::text {

// MetaFacts::os_pretty_name of a machine the text shows to run Windows (not WSL).
inline constexpr std::string_view k_windows_os_name = "Microsoft Windows (as the text shows)";

// One fact read from the text, with where it was read: "line 12: nvidia-smi: driver 470.182.03".
struct Reading {
  std::size_t line = 0;
  std::string what;
};

class ReportReader {
 public:
  // `line` without its '\n'; `number` counts from 1.
  void feed_line(std::string_view line, std::size_t number);
  // Whole lines ("a\nb\n"; the last may lack its '\n'), the first numbered `first_number`: only
  // the lines that hold one of the readers' words are read (one strided search over the whole
  // block, no per-line work), so a training log costs little more than reading it. Returns the
  // number of lines in `block`.
  std::size_t feed_lines(std::string_view block, std::size_t first_number);
  // A known message that the log signatures found on line `number` (data/signatures.tsv id and its
  // captures). Some messages state a fact about the machine as well as a failure: torch's "No CUDA
  // GPUs are available" says the CUDA runtime counted no device. Those facts are read here, so the
  // checks can join them with the dumps.
  void feed_message(std::string_view id, const std::vector<std::pair<std::string, std::string>>& captures,
                    std::size_t number);

  // The described machine. Only what the text showed is set.
  facts::Facts facts() const;
  const std::vector<Reading>& readings() const { return m_readings; }
  bool any() const { return !m_readings.empty(); }

 private:
  void note(std::size_t line, std::string what);
  void read_driver_libraries(std::string_view line, std::size_t number);
  void read_runtime_package(std::string_view line, std::size_t number);
  void read_system_packages(std::string_view line, std::size_t number);
  void set_torch(std::string_view version, std::size_t line, std::string_view how);
  void add_gpu(std::string name, std::size_t line, std::string_view how);
  std::optional<std::string> pypi_default(const std::string& version) const;
  void tf_build(facts::FrameworkBuild& b) const;
  // "line N: what" of each reading that names one of `words`, for a build's evidence.
  void add_readings_about(std::initializer_list<std::string_view> words, std::vector<std::string>& evidence) const;

  std::optional<std::string> m_driver_version;
  std::optional<std::string> m_package_driver;  // the newest installed driver package ("570.158.01")
  std::optional<int> m_driver_cuda;  // 12020
  std::vector<std::string> m_gpus;
  std::map<std::size_t, std::pair<std::uint64_t, std::uint64_t>> m_memory;  // GPU -> used, total bytes
  std::map<std::size_t, std::uint64_t> m_ecc;                               // GPU -> uncorrectable errors
  struct Process {
    std::size_t gpu;
    std::uint32_t pid;
    std::string name;
    std::uint64_t bytes;
  };
  std::vector<Process> m_processes;
  bool m_process_table = false;
  bool m_gpus_from_table = false;
  std::optional<std::string> m_torch_version;  // "2.1.0+cu121"
  std::optional<std::string> m_torch_cuda;     // "12.1"; "" for a CPU build
  std::optional<bool> m_cuda_available;
  std::optional<std::string> m_tf_version;
  std::vector<std::string> m_ort_packages;     // "onnxruntime-gpu 1.17.0"
  std::string m_tf_variant;                    // "gpu" of tensorflow-gpu, "cpu" of tensorflow-cpu
  std::optional<std::string> m_cuda_toolkit;   // "10.2"
  std::optional<std::string> m_container_run;  // "docker run -it image sh"
  std::size_t m_compose_line = 0;              // a compose file's "services:"
  std::size_t m_kube_line = 0;                 // a Kubernetes manifest's "kind: Pod"
  std::optional<std::string> m_spec_image;     // the first "image:" of such a spec
  bool m_spec_asks_gpu = false;                // anything in the text asks for a GPU
  std::optional<std::string> m_cuda_visible_devices;  // a CUDA_VISIBLE_DEVICES=... the text sets
  bool m_cuda_no_device = false;                      // the CUDA runtime counted no device
  bool m_conda_cpuonly = false;
  bool m_torch_by_conda = false;  // torch was read off `conda list` or a conda plan
  bool m_windows = false;  // the text shows a Windows machine (paths, collect_env's OS, wheel tags)
  bool m_wsl = false;      // the text mentions WSL: Linux, whatever Windows it also names
  bool m_wsl2 = false;
  bool m_wsl1 = false;     // "WSL 1", a WSL 1 kernel (4.4.0-19041-Microsoft), `wsl -l -v` VERSION 1
  std::optional<std::string> m_wsl_kernel;        // "5.10.16.3-microsoft-standard-WSL2"
  std::optional<int> m_windows_build;             // 17763 of "10.0.17763"
  std::vector<facts::DriverLibrary> m_libraries;  // libcuda / libnvidia-ml paths in the text
  int m_nvml_init_error = 0;
  std::optional<int> m_cudart_version;  // 12040 of ".../libcudart.so.12.4.99"
  std::string m_cudart_path;
  struct PackageRuntime {
    int version = 0;   // 12010; 12000 for "any 12.x"
    std::string what;  // "cupy-cuda12x (a CUDA 12.x runtime, line 7)"
  };
  std::optional<PackageRuntime> m_package_runtime;  // the newest CUDA runtime a package in the text carries
  bool m_insufficient_driver = false;
  bool m_jax_fallback = false;   // "No GPU/TPU found, falling back to CPU"
  bool m_jax_cpu = false;        // JAX says its jaxlib has no CUDA, or pip found no CUDA extra
  bool m_cuda_attempted = false; // a message shows CUDA was tried and failed
  std::size_t m_jax_fallback_line = 0;   // a message gave CUDA runtime error 35                      // nvmlInit's error code, as a message gave it
  bool m_conda = false;    // the text mentions conda: a tagless torch version need not be PyPI's
  int m_pending_repl = 0;  // 1: the next output line is torch.__version__, 2: torch.version.cuda
  // `python -c "...print(torch.__version__); print(torch.cuda.is_available())"`: what each of the next
  // output lines prints (1, 2, 3 as above; one print may print several, blank-separated). While it
  // is not empty, m_pending_repl is 4 and every line is read.
  std::vector<std::vector<int>> m_oneliner_prints;
  int m_oneliner_skipped = 0;  // lines passed over before the output
  void read_oneliner_output(std::string_view line, std::size_t number);
  std::vector<Reading> m_readings;
};

// A pasted line as the tool printed it: ANSI colour codes, Markdown quote markers ("> "), and the
// common HTML entities of issue pages (&gt; &lt; &amp; &quot; &#39;) removed.
std::string clean_line(std::string_view line);

}  // namespace gpudoctor::probe::text
