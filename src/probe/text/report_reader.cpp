// The shapes read here, each as the tool prints it:
// - nvidia-smi's banner "| NVIDIA-SMI 470.182.03   Driver Version: 470.182.03   CUDA Version: 11.4 |",
//   its GPU rows "|   0  NVIDIA GeForce RTX 3090   Off  | 00000000:01:00.0 ...", `nvidia-smi -L`
//   "GPU 0: Tesla K80 (UUID: GPU-...)", and `nvidia-smi -q` "Driver Version : 535.104.05";
// - torch/utils/collect_env.py's "PyTorch version:", "CUDA used to build PyTorch:", "Is CUDA
//   available:", "Nvidia driver version:", "GPU models and configuration:" lines and its
//   "[pip3] torch==..." / "[conda] pytorch ..." package list;
// - /proc/driver/nvidia/version "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05 ...";
// - pip list / pip freeze / wheel names ("torch 2.1.0+cu121", "torch==2.1.0+cpu",
//   "torch-2.0.1+cu117-cp310-..."), conda list ("pytorch 2.1.0 py3.10_cuda11.8_cudnn8.7.0_0",
//   "cpuonly"), and PyTorch's index URLs (".../whl/cu118", ".../whl/cpu");
// - CUDA_VISIBLE_DEVICES set on a shell line ("CUDA_VISIBLE_DEVICES=2 python main.py", "export
//   CUDA_VISIBLE_DEVICES=0,1") or in Python (os.environ["CUDA_VISIBLE_DEVICES"] = '1');
// - Windows' `ver` banner "Microsoft Windows [Version 10.0.17763.292]" and platform strings
//   "Windows-10-10.0.19045-SP0": the Windows build (WSL's GPU support depends on it);
// - paths of the driver's user-space libraries ("/lib/x86_64-linux-gnu/libcuda.so",
//   "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "libcuda.so.560.35.03") in tracebacks and loader
//   messages;
// - a docker compose file ("services:" ... "image: x") or a Kubernetes manifest ("kind: Pod",
//   "containers:"), and whether anything in the text asks for a GPU (a device reservation with
//   capabilities [gpu], runtime: nvidia, an nvidia.com/gpu limit);
// - ONNX Runtime's packages in a pip or conda list ("onnxruntime 1.16.3", "onnxruntime-gpu==1.17.0"):
//   the CPU and GPU packages share one import directory, so both together matter;
// - a Python REPL: ">>> torch.__version__" then "'2.1.0+cu121'", ">>> torch.version.cuda" then
//   "'12.1'" or nothing (None), ">>> torch.cuda.is_available()" then "False".
// - packages that carry a CUDA runtime, in pip and conda lists, install lines and wheel index URLs:
//   nvidia-cuda-runtime-cu12 (its version is CUDA's), conda's cudatoolkit,
//   cuda-cudart and cuda-runtime, cuda-python / cuda-bindings, cupy-cuda117 / cupy-cuda12x,
//   paddlepaddle-gpu 2.5.1.post117, jaxlib 0.4.13+cuda12.cudnn89, jax-cuda12-plugin, and
//   llama-cpp-python's ".../whl/cu121" index: the CUDA runtime the program loads, judged against the
//   driver like a libcudart found on a live machine.
#include <probe/text/report_reader.hpp>

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include <data/tsv.hpp>
#include <util/text.hpp>

namespace gpudoctor::probe::text {
namespace {

constexpr std::size_t k_max_line = 16 * 1024;  // past this a line is no tool's output we read
constexpr std::size_t k_max_gpus = 64;

struct Patterns {
  RE2 driver_version{R"((?i)driver version\W{0,4}?\s*[:=]?\s*(\d{3}(?:\.\d+){0,2})\b)"};
  // An issue template's "Driver: 550.163.01", and the same in Chinese ("驱动 430.64", "驱动版本：470.57").
  RE2 driver_field{R"((?i)(?:\bdriver|驱动|驅動)(?:版本)?\s*[:：]?\s*(\d{3}\.\d+(?:\.\d+)?)\b)"};
  // Prose: "The nvidia driver is 410.48", "my driver version was 535". The verb is required: "needs
  // driver 418.39" names the driver a build wants, not the one installed.
  RE2 driver_prose{R"((?i)\bdriver(?:\s+version)?\s+(?:is|was)\s+(?:v(?:ersion)?\s*)?(\d{3}(?:\.\d{2,3}){0,2})(?:\b|$))"};
  // Prose that says the driver is the one at hand: "I have CUDA 12.9 and driver 570.133.20", "using
  // nvidia driver 535.104.05". A dotted version only: a bare "535" beside "have" may be anything.
  RE2 driver_possessed{
      R"((?i)\b(?:i have|i've|has|have got|using|running|installed|my)\b[^\n]{0,40}?\bdriver\s+(?:v(?:ersion)?\s*)?(\d{3}\.\d{2,3}(?:\.\d{2,3})?)\b)"};
  // torch's own warning: "The NVIDIA driver on your system is too old (found version 10010)".
  RE2 found_version{R"(driver on your system is too old \(found version (\d{4,6})\))"};
  RE2 cuda_version{R"(CUDA Version\s*:\s*(\d+)\.(\d+))"};
  RE2 kernel_module{R"(Kernel Module(?:\s+for\s+\S+)?\s+(\d{2,3}\.\d+(?:\.\d+)?))"};
  RE2 smi_row{R"(^\|\s*(\d+)\s+(.+?)\s+(?:On|Off)\s+\|)"};
  // The row under a GPU's row: fan, temperature, perf state, power, "12799MiB / 16280MiB", utilisation.
  RE2 smi_memory{R"(^\|\s*(?:\d+%|N/A)\s+(?:\d+C|N/A)\s.*?\|\s*(\d+)MiB\s*/\s*(\d+)MiB\s*\|)"};
  // The GPU row's last column: "Volatile Uncorr. ECC" (a count, "N/A" or "Off").
  RE2 smi_ecc{R"(\|\s*(\d+)\s*\|\s*$)"};
  // A process row: "|    0   N/A  N/A     12345      C   python                       11019MiB |".
  RE2 smi_process{R"(^\|\s*(\d+)\s+(?:\S+\s+\S+\s+)?(\d+)\s+(?:C|G|C\+G|M|M\+C)\s+(\S.*?)\s+(\d+)MiB\s*\|)"};
  RE2 gpu_line{R"(^GPU \d+:\s*(.+?)\s*(?:\(UUID:.*)?$)"};
  // An issue template's GPU field: "- GPU: NVIDIA GeForce GTX 1050 (compute capability 6.1)",
  // "GPU model and memory: GTX 1650 4GB", "**NVIDIA GPU**: P40".
  RE2 gpu_field{R"((?i)^[-*#>\s]*(?:NVIDIA\s+)?GPU(?:\s+models?(?:\s+and\s+memory)?|\s+type|\s+name)?\**\s*[:：]\**\s*([^,;(]*[A-Za-z][^,;(]*?)\s*(?:[,;(].*)?$)"};
  RE2 collect_gpu{R"(^GPU models and configuration:\s*(?:GPU \d+:\s*)?(.+?)\s*$)"};
  // collect_env's field, and the same field in an issue template's Markdown list ("- **PyTorch Version**: 2.2.0").
  RE2 torch_version{R"((?i)^(?:[-*] +)?\**PyTorch version\**\s*:\s*\**\s*([0-9][^\s*]*))"};
  // An issue template's "PyTorch version: 1.5.0 (CPU toolkit)" / "(CPU only)": the build said in words.
  RE2 torch_version_cpu{R"((?i)PyTorch version\**\s*:\s*\**\s*[0-9][^\s*]*\s*\(\s*cpu\b)"};
  RE2 torch_cuda{R"(^CUDA used to build PyTorch:\s*(\S+))"};
  RE2 cuda_available{R"(^Is CUDA available:\s*(\w+))"};
  RE2 torch_package{
      R"((?:^|[\s'"\[(=*])(?:[Pp]y)?[Tt]orch\**(?:===?|:?\s+|-)v?(\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc|\.dev|\.post)\d+)?(?:\+[A-Za-z0-9.]+)?)(?:$|[\s'",)\]-]))"};
  RE2 conda_pytorch{R"((?:^|\s)pytorch\s+(\d+\.\d+(?:\.\d+)?)\s+(\S+))"};
  RE2 conda_cpuonly{R"((?:^|\s)cpuonly\s+\d)"};
  // conda's transaction plan ("The following NEW packages will be INSTALLED:"): "  pytorch-nightly
  // pytorch/linux-64::pytorch-nightly-1.2.0.dev20190805+cpu-py3.7_cpu_0", "  cpuonly  pytorch/noarch::cpuonly-2.0-0".
  RE2 conda_plan_pytorch{R"((?:^|\s)[\w./-]+::pytorch(?:-nightly)?-(\d+\.\d+(?:\.\d+)?[\w.+]*)-(\S+))"};
  RE2 conda_plan_cpuonly{R"((?:^|\s)[\w./-]+::cpu-?only-\d)"};
  RE2 windows_path{R"((?:^|[\s"'(])[A-Z]:\\(?:Users|Program Files|Python|ProgramData|Windows)\\)"};
  // "tensorflow==2.12.0", "tensorflow 2.12.0" (pip list), "TensorFlow version: 2.12", and in prose
  // "tensorflow version is 2.12.0".
  RE2 conda_tf_cpu{R"((?:^|\s)tensorflow(?:-base)?\s+\d+\.\d+(?:\.\d+)?\s+((?:eigen|mkl)_py\w*))"};
  RE2 tf_version{R"((?i)tensorflow(-gpu|-cpu|_gpu|_cpu)?(?:\s+version(?:\s*\([^)]*\))?\s*(?::|=|\bis\b)\s*(?:tf\s*)?|==|\s+)v?(\d+\.\d+(?:\.\d+)?)\b)"};
  RE2 container_run{
      R"((?:^|[\s`$(>])((?:sudo\s+)?(?:(?:nvidia-docker|docker|podman)\s+run|(?:singularity|apptainer)\s+(?:shell|exec|run))\s.*?)\s*`?$)"};
  RE2 index_url{R"(download\.pytorch\.org/whl/(cu\d+|cpu|rocm[\d.]+)\b)"};
  RE2 repl_input{
      R"(^(?:(?:>>>|In \[\d+\]:)\s*(?:print\()?|print\()\s*(torch\.__version__|torch\.version\.cuda|torch\.cuda\.is_available\(\))\s*\)?\s*$)"};
  // The value of a shell assignment ends at a blank, a quote or ';'; "$0" is kept (it expands to the
  // shell's own name), other variables are not (their value is not in the text).
  RE2 cvd_shell{R"((?:^|[\s;(`])(?:export\s+)?CUDA_VISIBLE_DEVICES=(['"]?)([^\s'";`]*))"};
  RE2 cvd_python{R"(CUDA_VISIBLE_DEVICES['"]\]\s*=\s*['"]([^'"]*)['"])"};
  // Prose that says the variable is set but empty ("the orchestrator leaves CUDA_VISIBLE_DEVICES empty").
  RE2 cvd_empty_prose{R"((?i)CUDA_VISIBLE_DEVICES\W{0,3}(?:is |was |stays? |set to |left |as )?(?:an? )?(?:empty|blank)\b|\b(?:empty|blank) CUDA_VISIBLE_DEVICES\b)"};
  RE2 windows_build{R"(Windows.*?\b10\.0\.(\d{5})\b)"};
  // The build as Windows' "About" page and winver show it: "OS build 19042.572", "Windows 10 21H2
  // (19044.1288)".
  RE2 os_build{R"((?i)(?:\bOS build\W{0,3}|Windows 1[01]\b[^\n]{0,40}?\()(\d{5})\.\d{1,5}\b)"};
  // WSL 1: said ("WSL1", "WSL 1", not the WSL app's "1.2.5"), its kernel ("4.4.0-19041-Microsoft",
  // WSL 2's is "...-microsoft-standard-WSL2"), or a `wsl -l -v` row whose VERSION is 1.
  RE2 wsl1{R"((?:\bWSL ?1(?:$|[^.0-9])|\b\d+\.\d+\.\d+-\d+-Microsoft\b|^\s*\*?\s*[\w.-]+\s+(?:Running|Stopped|Installing|Converting)\s+1\s*$))"};
  // WSL 2's kernel release, as `uname -r` and /proc/version show it: "5.10.16.3-microsoft-standard-WSL2".
  RE2 wsl2_kernel{R"(\b(\d+\.\d+\.\d+(?:\.\d+)?-microsoft-standard(?:-WSL2)?)\b)"};
  RE2 driver_library{R"(((?:/[\w.+-]+)*/)?(libcuda|libnvidia-ml)\.so((?:\.\d+)*))"};
  RE2 cudart_file{R"(((?:/[\w.+-]+)*/)?libcudart\.so\.(\d+)\.(\d+)\.\d+)"};
  // The toolkit: nvcc's "Cuda compilation tools, release 10.2, V10.2.89", /usr/local/cuda/version.txt
  // "CUDA Version 10.2.89", TensorFlow's issue template "CUDA/cuDNN version: 10.2.89" or "11.2/8.1".
  RE2 nvcc_release{R"(Cuda compilation tools, release (\d+)\.(\d+))"};
  RE2 version_txt{R"(^#?\s*CUDA Version (\d+)\.(\d+)\.\d+\s*$)"};
  RE2 cuda_cudnn_field{R"((?i)^[-*\s]*CUDA/cuDNN version\s*:\s*(?:CUDA\s*)?v?(\d+)\.(\d+)\b)"};
  RE2 ort_package{R"((?:^|[\s'"(=])(onnxruntime(?:[-_]gpu|[-_]directml|[-_]openvino|[-_]silicon)?)(?:==|\s+)v?(\d+\.\d+(?:\.\d+)?)\b)"};
  RE2 quoted{R"(^(?:Out\[\d+\]:\s*)?'?([^'\s]+)'?\s*$)"};
  // Packages whose version is the CUDA version of the runtime they carry: pip's "name==12.1.105",
  // pip list's and conda list's "name   12.1.105", conda install's "name=11.3".
  RE2 runtime_package{
      R"((?:^|[\s'"(\[])(nvidia-cuda-runtime-cu\d+|cudatoolkit|cuda-cudart|cuda-runtime|cuda-python|cuda-bindings)(?:===?|\s+|=)v?(\d+)\.(\d+)\b)"};
  // "cupy-cuda117", "cupy-cuda102", "cupy-cuda12x" (any 12.x runtime).
  RE2 cupy_package{R"(\bcupy-cuda(\d{2,3}|\d{2}x)\b)"};
  // paddlepaddle-gpu's local versions name CUDA: "2.5.1.post117" is CUDA 11.7 ("post107" and older
  // two-digit tags name CUDA and cuDNN together, and are not read).
  RE2 paddle_post{R"(paddlepaddle-gpu(?:===?|\s+)v?\d+\.\d+\.\d+\.post(10[12]|1[12]\d)\b)"};
  // jaxlib's CUDA builds: "0.4.13+cuda12.cudnn89", "0.1.57+cuda102"; the plugin "jax-cuda12-plugin".
  RE2 jaxlib_cuda{R"(\bjaxlib(?:===?|\s+)v?\d+\.\d+\.\d+\+cuda(\d{2,3})\b)"};
  RE2 jax_plugin{R"(\bjax-cuda(\d{2})-(?:plugin|pjrt)\b)"};
  RE2 llama_index{R"(/whl/cu(\d{3})\b)"};
  // Installed driver packages, as package managers list them: `apt list --installed`
  // ("nvidia-driver-570-server/jammy-updates,now 570.158.01-0ubuntu0.22.04.1 amd64"), `dpkg -l`
  // ("ii  libnvidia-compute-535  535.183.01-0ubuntu1"), rpm ("akmod-nvidia-3:550.78-1.fc40",
  // "nvidia-driver-550.54.15-1.el9") and pacman ("nvidia-utils 550.78-1").
  RE2 deb_driver_package{
      R"((?:^|[\s'"(\[])(?:nvidia-driver|nvidia-utils|libnvidia-compute|nvidia-dkms|nvidia-kernel-common|nvidia-headless(?:-no-dkms)?|xserver-xorg-video-nvidia|nvidia-compute-utils)-(\d{3})\b\S*\s+(?:\d+:)?(\d{3}\.\d+(?:\.\d+)?)\b)"};
  RE2 rpm_driver_package{
      R"((?:^|[\s'"(\[])(?:akmod-nvidia|kmod-nvidia(?:-latest-dkms|-open-dkms)?|xorg-x11-drv-nvidia(?:-cuda|-libs|-kmodsrc)?|nvidia-driver(?:-cuda|-libs)?)-(?:\d+:)?(\d{3}\.\d+(?:\.\d+)?)-\d)"};
  RE2 pacman_driver_package{R"((?:^|\s)(?:nvidia|nvidia-utils|nvidia-dkms|nvidia-open(?:-dkms)?|nvidia-\d{3}xx-utils)\s+(\d{3}\.\d+(?:\.\d+)?)-\d+\b)"};
  // The CUDA toolkit's packages: "cuda-toolkit-13-0/unknown,now 13.0.0-1", "ii  cuda-nvcc-12-2 ...",
  // conda's "cuda-toolkit 12.4.1", and a post's "| CUDA toolkit (nvcc) | 13.1.115 |".
  RE2 toolkit_package{R"((?:^|[\s'"(\[])cuda-(?:toolkit|nvcc|cudart|runtime|libraries|compiler|command-line-tools)-(\d{1,2})-(\d)\b)"};
  RE2 conda_toolkit{R"((?:^|[\s'"(\[])cuda-(?:toolkit|nvcc)(?:===?|=|\s+)v?(\d{1,2})\.(\d)\b)"};
  RE2 toolkit_field{R"((?i)^[-*|#>\s]*CUDA[ _-]?toolkit(?:\s+version)?(?:\s*\([^)|]*\))?\**\s*[:|：=]\s*\**\s*v?(\d{1,2})\.(\d)\b)"};
};

const Patterns& patterns() {
  static const Patterns p;
  return p;
}

// "cu121" -> "12.1", "cu92" -> "9.2".
std::string cuda_from_tag(std::string_view tag) {
  if (!tag.starts_with("cu") || tag.size() < 4) return {};
  auto digits = tag.substr(2);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos) return {};
  auto minor = digits.substr(digits.size() - 1);
  auto major = digits.substr(0, digits.size() - 1);
  // The first wheels were built for CUDA 7.5: "cu12" is a cut-off "cu121", not CUDA 1.2.
  if (util::parse_int(major).value_or(0) < 7) return {};
  return fmt::format("{}.{}", major, minor);
}

// The CUDA version in a conda build string: py3.10_cuda11.8_cudnn8.7.0_0 -> "11.8", and conda-forge's
// cuda120_py311h... -> "12.0"; "" when it names none.
std::string cuda_from_build(std::string_view build) {
  auto at = build.find("cuda");
  if (at == std::string_view::npos) return {};
  auto rest = build.substr(at + 4);
  std::string cuda(rest.substr(0, rest.find_first_not_of("0123456789.")));
  while (!cuda.empty() && cuda.back() == '.') cuda.pop_back();
  return cuda.find('.') == std::string::npos ? cuda_from_tag("cu" + cuda) : cuda;
}

// "10.0.130" -> "10.0" (torch.version.cuda of old builds carries the patch level).
std::string major_minor(std::string_view v) {
  auto parts = util::split(v, '.');
  if (parts.size() < 2) return std::string(v);
  return fmt::format("{}.{}", parts[0], parts[1]);
}

}  // namespace

std::string clean_line(std::string_view raw) {
  std::string typed;
  if (util::has_typography(raw)) typed = util::fold_typography(raw);
  std::string_view line = typed.empty() ? raw : std::string_view(typed);
  std::string out;
  auto has = [&](char c) { return std::memchr(line.data(), c, line.size()) != nullptr; };
  const bool plain = !has('\x1b') && !has('\r') && !has('&');  // the common line: nothing to unescape or drop
  if (plain) out.assign(line);
  else out.reserve(line.size());
  for (std::size_t i = 0; !plain && i < line.size(); ++i) {
    char c = line[i];
    if (c == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {  // CSI ... final byte
      std::size_t j = i + 2;
      while (j < line.size() && !(line[j] >= 0x40 && line[j] <= 0x7e)) ++j;
      i = j;
      continue;
    }
    if (c == '\r') continue;
    if (c == '&') {
      static constexpr std::pair<std::string_view, char> k_entities[] = {
          {"&gt;", '>'}, {"&lt;", '<'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&#x27;", '\''}};
      bool replaced = false;
      for (auto [name, ch] : k_entities) {
        if (line.substr(i).starts_with(name)) {
          out += ch;
          i += name.size() - 1;
          replaced = true;
          break;
        }
      }
      if (replaced) continue;
    }
    out += c;
  }
  // Markdown quote markers of a reply ("> > text"), and the indentation of a fence.
  std::string_view v = out;
  while (true) {
    auto t = util::trim(v);
    if (t.starts_with(">") && !t.starts_with(">>>")) {
      v = t.substr(1);
      continue;
    }
    v = t;
    break;
  }
  return std::string(v);
}

void ReportReader::note(std::size_t line, std::string what) {
  if (m_readings.size() < 200) m_readings.push_back({line, util::printable(what)});
}

void ReportReader::set_torch(std::string_view version, std::size_t line, std::string_view how) {
  std::string v(version);
  while (!v.empty() && v.back() == '.') v.pop_back();  // "was still torch 2.4.0+cpu."
  // A version with its local tag ("+cu121") says more than one without; keep the first tagged one,
  // unless this one completes it (a title cut off at "2.2.0+cu12", the body's "2.2.0+cu121").
  const bool completes = m_torch_version && v.size() > m_torch_version->size() && v.starts_with(*m_torch_version);
  // A CPU build shown after a CUDA one ("it trained on torch-1.8.1+cu111; now the banner says
  // torch-2.0.0+cpu"): what the post is about is the later, CPU-only install.
  const bool cpu_after_cuda = m_torch_version && m_torch_cuda && !m_torch_cuda->empty() && v.ends_with("+cpu");
  if (m_torch_version && m_torch_version->find('+') != std::string::npos && !completes && !cpu_after_cuda) return;
  if (m_torch_version && v.find('+') == std::string::npos) return;
  m_torch_version = v;
  auto plus = v.find('+');
  if (plus != std::string::npos) {
    auto tag = std::string_view(v).substr(plus + 1);
    if (tag == "cpu") m_torch_cuda = "";
    else if (auto cuda = cuda_from_tag(tag); !cuda.empty()) m_torch_cuda = cuda;
  }
  note(line, fmt::format("{}: torch {}", how, v));
}

void ReportReader::add_gpu(std::string name, std::size_t line, std::string_view how) {
  name = std::string(util::trim(name));
  if (name.empty() || m_gpus.size() >= k_max_gpus) return;
  if (std::find(m_gpus.begin(), m_gpus.end(), name) == m_gpus.end()) {
    m_gpus.push_back(name);
    note(line, fmt::format("{}: GPU {}", how, name));
  }
}

namespace {

// Every shape read here holds one of these words. A training log of 100 MB has a few such lines,
// so the search must cost little more than reading the bytes, and it runs over a whole block, not
// line by line. Each word is at least 4 bytes long, so any 3 consecutive byte pairs of it (its
// window) hold a pair at one of any 3 consecutive offsets: every third pair of the block is looked
// up in an 8 KiB bitset of the windows' pairs (it stays in the L1 cache); only a pair in the set is
// looked up in the table of which words hold it, then confirmed by one comparison per word. Each
// word's window is the one whose pairs are rarest in training logs and issue posts (counted over
// bench/explain.sh's log and tests/explain/corpus): "ersion" samples "rs", "si", "io", never "er".
// nvidia-smi's table rows stand here by their cells (" On ", "Off ", "W / " of the power column);
// a REPL's input lines hold "torch", and its output is read as the line after one (m_pending_repl).
struct Keyword {
  std::string_view word;
  std::size_t window;  // the offset of the first of its 3 sampled pairs
};
constexpr Keyword k_keywords[] = {
    {"ersion", 1},     {"torch", 0},       {"Torch", 0},       {"Module", 0},  {"cpuonly", 0},
    {"whl/", 0},       {"Windows", 3},     {"Win1", 0},        {"WSL2", 0},    {"WSL ", 0},
    {"ensorflow", 3},  {"ensorFlow", 3},   {"microsoft-standard", 5},          {"docker", 0},
    {"podman", 1},     {" On ", 0},        {"Off ", 0},        {"W / ", 0},    {"N/A /", 0},
    {"Processes:", 6}, {"running processes", 6},               {"Is CUDA", 3}, {"GPU ", 0},
    {":\\Us", 0},     {":\\Pr", 0},      {":\\Py", 0},      {"VISIBLE_DEVICES", 1}, {" WSL", 0},
    {"cuda.so", 3},    {"nvidia-ml", 5},   {"cudart.so", 5},   {"compilation tools", 1},
    {"CUDA/cuDNN", 6}, {"river", 0},     {"驱动", 0},      {"驅動", 1},
    {"GPU:", 0},       {"GPU*", 0},        {"services:", 2},   {"kind:", 0},   {"image:", 2},
    {"capabilities:", 2}, {"nvidia.com/gpu", 9}, {"runtime: nvidia", 9}, {"--gpus", 1}, {"driver: nvidia", 0},
    {"onnxruntime", 1}, {"-Microsoft", 0}, {"WSL1", 0}, {"Running ", 0}, {"Stopped ", 2},
    {"ingularity", 2}, {"pptainer", 0},
    {"cudatoolkit", 6}, {"cuda-runtime", 2}, {"cuda-cudart", 2}, {"cuda-python", 1}, {"cuda-bindings", 3},
    {"cupy-cuda", 2},  {"paddle-gpu", 6},   {"jaxlib", 0},      {"jax-cuda", 0},    {"OS build", 0},
    {"OS Build", 1},   {"/proc/bus/pci", 4}, {"oolkit", 1}, {"nvidia-utils", 4}, {"libnvidia-compute", 7},
    {"nvidia-dkms", 7}, {"nvidia-kernel", 4}, {"nvidia-headless", 4}, {"kmod-nvidia", 2}, {"drv-nvidia", 1}};
constexpr std::size_t k_stride = 3;
static_assert(std::size(k_keywords) <= 128);
static_assert(std::ranges::all_of(k_keywords, [](const Keyword& k) { return k.window + k_stride < k.word.size(); }));

struct PairTable {
  std::array<std::uint64_t, 1024> any{};     // bit p: some window holds pair p
  // bit i of words[p][i / 64]: k_keywords[i]'s window holds pair p
  std::array<std::array<std::uint64_t, 2>, 65536> words{};
  PairTable() {
    for (std::size_t i = 0; i < std::size(k_keywords); ++i) {
      const auto& k = k_keywords[i];
      for (std::size_t j = k.window; j < k.window + k_stride; ++j) {
        auto p = pair(reinterpret_cast<const unsigned char*>(k.word.data()) + j);
        words[p][i / 64] |= std::uint64_t{1} << (i % 64);
        any[p >> 6] |= std::uint64_t{1} << (p & 63);
      }
    }
  }
  static std::uint16_t pair(const unsigned char* p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }
};

// The offset of the first keyword in `text` at or after `from`, or npos.
std::size_t find_keyword(std::string_view text, std::size_t from) {
  static const PairTable table;
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  for (std::size_t i = from; i + 1 < text.size(); i += k_stride) {
    auto p = PairTable::pair(b + i);
    if ((table.any[p >> 6] >> (p & 63) & 1) == 0) continue;
    for (std::size_t half = 0; half < 2; ++half) {
      auto mask = table.words[p][half];
      for (std::size_t w = half * 64; mask != 0; ++w, mask >>= 1) {
        if ((mask & 1) == 0) continue;
        const auto& k = k_keywords[w];
        // The pair stands at one of the window's offsets: try each start that puts it there.
        for (std::size_t j = k.window; j < k.window + k_stride; ++j) {
          if (i >= j + from && k.word[j] == text[i] && k.word[j + 1] == text[i + 1] && text.substr(i - j).starts_with(k.word)) {
            return i - j;
          }
        }
      }
    }
  }
  return std::string_view::npos;
}

// "torch" (or "PyTorch") followed by "==", blanks, ":" or '-' and a digit: a package line, not a path like
// ".../torch/utils/data/dataloader.py" (which every DataLoader warning carries).
bool torch_then_version(std::string_view line) {
  for (auto at = line.find("orch"); at != std::string_view::npos; at = line.find("orch", at + 1)) {
    auto rest = line.substr(at + 4);
    std::size_t i = 0;
    while (i < rest.size() && i < 40 && (rest[i] == '=' || rest[i] == ' ' || rest[i] == '-' || rest[i] == '\t' || rest[i] == 'v' || rest[i] == ':' ||
                           rest[i] == '*')) ++i;
    if (i > 0 && i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) return true;
  }
  return false;
}

// A line whose only keywords are "torch" as a directory of a path (".../site-packages/torch/nn/
// modules/module.py", every frame of a traceback and every DataLoader warning) and which holds no
// "conda" (a conda environment's path) tells the readers nothing: no reader looks at such a path.
// `at` is the offset of the first keyword in `line`.
bool only_torch_directories(std::string_view line, std::size_t at) {
  auto separator = [](char c) { return c == '/' || c == '\\'; };
  for (; at != std::string_view::npos; at = find_keyword(line, at + 5)) {
    if (at == 0 || at + 5 >= line.size() || line.substr(at, 5) != "torch" || !separator(line[at - 1]) ||
        !separator(line[at + 5])) {
      return false;
    }
  }
  return line.find("conda") == std::string_view::npos;
}

}  // namespace

std::size_t ReportReader::feed_lines(std::string_view block, std::size_t first_number) {
  const auto lines_in = [](std::string_view t) { return util::count_byte(t, '\n'); };
  std::size_t number = first_number;  // the number of the line that starts at `pos`
  std::size_t pos = 0;
  while (pos < block.size()) {
    std::size_t at = pos;
    std::size_t line_start = pos;  // every line is read while a REPL or one-liner's output is pending
    if (m_pending_repl == 0) {
      // No word holds a '\n': searching from the line's start finds every word in it.
      at = find_keyword(block, pos);
      if (at == std::string_view::npos) break;
      line_start = block.rfind('\n', at);
      line_start = line_start == std::string_view::npos || line_start < pos ? pos : line_start + 1;
    }
    number += lines_in(block.substr(pos, line_start - pos));
    auto end = block.find('\n', at);
    if (end == std::string_view::npos) end = block.size();
    std::string_view line = block.substr(line_start, end - line_start);
    if (m_pending_repl != 0 || !only_torch_directories(line, at - line_start)) feed_line(line, number);
    ++number;
    pos = end + 1;
  }
  if (pos < block.size()) {
    auto rest = block.substr(pos);
    number += lines_in(rest) + (rest.back() == '\n' ? 0 : 1);
  }
  return number - first_number;
}

void ReportReader::feed_line(std::string_view raw, std::size_t number) {
  if (raw.size() > k_max_line) return;
  const auto& p = patterns();
  std::string line = clean_line(raw);
  re2::StringPiece in(line);
  std::string a, b, c;

  if (m_pending_repl == 4) {
    if (line.empty() || line.starts_with("```")) return;
    read_oneliner_output(line, number);
    if (m_pending_repl == 4) return;
  }
  if (m_pending_repl != 0 && !line.empty() && !line.starts_with(">>>") && !line.starts_with("In [")) {
    int which = m_pending_repl;
    m_pending_repl = 0;
    if (RE2::FullMatch(in, p.quoted, &a)) {
      if (which == 1 && !a.empty() && std::isdigit(static_cast<unsigned char>(a[0]))) set_torch(a, number, "REPL torch.__version__");
      if (which == 2) {
        m_torch_cuda = a == "None" ? "" : major_minor(a);
        note(number, fmt::format("REPL: torch.version.cuda = {}", a));
      }
      if (which == 3 && (a == "True" || a == "False")) {
        m_cuda_available = a == "True";
        note(number, "REPL: torch.cuda.is_available() = " + a);
      }
    }
  } else if (m_pending_repl == 2 && (line.starts_with(">>>") || line.starts_with("In ["))) {
    // `>>> torch.version.cuda` answered by nothing: the REPL prints nothing for None.
    m_pending_repl = 0;
    m_torch_cuda = "";
    note(number, "REPL: torch.version.cuda printed nothing (None)");
  }
  auto contains = [&](std::string_view w) { return line.find(w) != std::string::npos; };
  const bool version = contains("ersion"), torch = contains("torch") || contains("Torch"), gpu = contains("GPU");
  const bool repl = line.starts_with(">>>") || line.starts_with("In [") || line.starts_with("print(");
  if (repl && RE2::PartialMatch(in, p.repl_input, &a)) {
    m_pending_repl = a == "torch.__version__" ? 1 : a == "torch.version.cuda" ? 2 : 3;
    return;
  }
  // A one-liner that prints torch's answers: its output lines follow, one per print().
  if (torch && contains("python") && contains("-c") && contains("print(")) {
    std::vector<std::vector<int>> prints;
    for (std::size_t at = line.find("print("); at != std::string::npos && prints.size() < 8; at = line.find("print(", at + 6)) {
      // The print's own text: up to the ';' or quote that ends the statement.
      std::size_t stop = line.find_first_of(";\"'", at + 6);
      std::string_view body = std::string_view(line).substr(at + 6, (stop == std::string::npos ? line.size() : stop) - at - 6);
      std::vector<std::pair<std::size_t, int>> found;
      for (auto [expr, which] : {std::pair<std::string_view, int>{"torch.__version__", 1}, {"torch.version.cuda", 2},
                                 {"torch.cuda.is_available()", 3}}) {
        if (auto w = body.find(expr); w != std::string_view::npos) found.emplace_back(w, which);
      }
      if (found.empty()) {
        prints.push_back({0});  // something else: its line is skipped
        continue;
      }
      std::sort(found.begin(), found.end());
      std::vector<int> order;
      for (const auto& f : found) order.push_back(f.second);
      prints.push_back(std::move(order));
    }
    bool any = std::any_of(prints.begin(), prints.end(), [](const auto& v) { return v != std::vector<int>{0}; });
    if (any) {
      m_oneliner_prints = std::move(prints);
      m_oneliner_skipped = 0;
      m_pending_repl = 4;
      return;
    }
  }

  if (!m_windows && (contains("Microsoft Windows") || contains("win_amd64") || contains("Windows 10") ||
                     contains("Windows 11") || contains("Win10") || contains("Win11") ||
                     (contains(":\\") && RE2::PartialMatch(in, p.windows_path)))) {
    m_windows = true;
    note(number, "the machine runs Windows");
  }
  if (contains("conda")) m_conda = true;
  if (contains("WSL2") || contains("WSL 2") || contains("microsoft-standard-WSL2")) m_wsl2 = true;
  // lspci on WSL 1 has no PCI bus to read; on Windows, that is WSL 1.
  if (!m_wsl1 && m_windows && contains("Cannot open /proc/bus/pci")) {
    m_wsl1 = true;
    m_wsl = true;
    note(number, "lspci finds no PCI bus: WSL 1");
  }
  // (The regex only where a word of it is: most lines hold none.)
  if (!m_wsl1 && (contains("WSL") || contains("Microsoft") || contains("Running") || contains("Stopped") ||
                  contains("Installing") || contains("Converting")) &&
      RE2::PartialMatch(in, p.wsl1)) {
    m_wsl1 = true;
    m_wsl = true;
    note(number, "the machine runs WSL 1");
  }
  if (!m_wsl_kernel && contains("microsoft-standard") && RE2::PartialMatch(in, p.wsl2_kernel, &a)) {
    m_wsl_kernel = a;
    m_wsl2 = true;
    note(number, "WSL 2 kernel " + a);
  }
  if (m_wsl2 || contains(" WSL") || line.starts_with("WSL") || contains("microsoft-standard")) {
    if (!m_wsl) note(number, "the text is about WSL");
    m_wsl = true;
  }
  if (!m_windows_build && ((contains("Windows") && RE2::PartialMatch(in, p.windows_build, &a)) ||
                            ((contains("build") || contains("Build") || contains("Windows")) &&
                             RE2::PartialMatch(in, p.os_build, &a)))) {
    m_windows_build = static_cast<int>(util::parse_int(a).value_or(0));
    note(number, "Windows build " + a);
  }
  if ((contains("cuda.so") || contains("nvidia-ml")) && m_libraries.size() < 16) read_driver_libraries(line, number);
  if (!m_cuda_toolkit && ((contains("compilation tools") && RE2::PartialMatch(in, p.nvcc_release, &a, &b)) ||
                          (version && RE2::PartialMatch(in, p.version_txt, &a, &b)) ||
                          (contains("CUDA/cuDNN") && RE2::PartialMatch(in, p.cuda_cudnn_field, &a, &b)))) {
    m_cuda_toolkit = a + "." + b;
    note(number, "CUDA toolkit " + *m_cuda_toolkit);
  }
  // A runtime library's full file name (three components: a file that exists, not a soname that
  // failed to load).
  if (!m_cudart_version && contains("cudart.so") && RE2::PartialMatch(in, p.cudart_file, &c, &a, &b)) {
    auto major = util::parse_int(a), minor = util::parse_int(b);
    if (major && minor && *major >= 7 && *major < 100 && *minor < 10) {
      m_cudart_version = static_cast<int>(*major * 1000 + *minor * 10);
      m_cudart_path = fmt::format("{}libcudart.so.{}.{}", c, a, b);
      note(number, fmt::format("CUDA runtime {}.{} ({})", a, b, m_cudart_path));
    }
  }
  if (version && !m_driver_version && RE2::PartialMatch(in, p.driver_version, &a)) {
    m_driver_version = a;
    note(number, "driver version " + a);
  }
  if (!m_driver_version && (contains("river:") || contains("驱动") || contains("驅動")) &&
      RE2::PartialMatch(in, p.driver_field, &a)) {
    m_driver_version = a;
    note(number, "driver version " + a);
  }
  if (!m_driver_version && contains("river") && RE2::PartialMatch(in, p.driver_prose, &a)) {
    if (auto major = util::parse_int(a.substr(0, 3)); major && *major >= 180) {
      m_driver_version = a;
      note(number, "driver version " + a + " (in the prose)");
    }
  }
  static const RE2 k_requirement(R"((?i)\bneed|\brequir|or (?:newer|later|higher|above)|at least|minimum)");
  if (!m_driver_version && contains("river") && RE2::PartialMatch(in, p.driver_possessed, &a) &&
      !RE2::PartialMatch(in, k_requirement)) {
    if (auto major = util::parse_int(a.substr(0, 3)); major && *major >= 180) {
      m_driver_version = a;
      note(number, "driver version " + a + " (in the prose)");
    }
  }
  if (!m_driver_version && contains("Kernel Module") && RE2::PartialMatch(in, p.kernel_module, &a)) {
    m_driver_version = a;
    note(number, "/proc/driver/nvidia/version: kernel module " + a);
  }
  if (version && !m_driver_cuda && RE2::PartialMatch(in, p.found_version, &a)) {
    if (auto v = util::parse_int(a); v && *v >= 6000 && *v < 100000) {
      m_driver_cuda = static_cast<int>(*v);
      note(number, fmt::format("torch: the driver supports CUDA {}.{} (found version {})", *v / 1000, *v % 1000 / 10, a));
    }
  }
  if (version && !m_driver_cuda && RE2::PartialMatch(in, p.cuda_version, &a, &b)) {
    auto major = util::parse_int(a), minor = util::parse_int(b);
    if (major && minor && *major >= 6 && *major < 100 && *minor < 10) {
      m_driver_cuda = static_cast<int>(*major * 1000 + *minor * 10);
      note(number, fmt::format("nvidia-smi: the driver supports CUDA {}.{}", a, b));
    }
  }
  if (line.starts_with("|") && contains("Processes:")) {
    m_process_table = true;
    note(number, "nvidia-smi: the process table");
  } else if (m_process_table && contains("No running processes found")) {
    note(number, "nvidia-smi: no running processes");
  } else if (m_process_table && line.starts_with("|") && contains("MiB") && RE2::PartialMatch(in, p.smi_process, &a, &b)) {
    std::string name, mib;
    RE2::PartialMatch(in, p.smi_process, &a, &b, &name, &mib);
    auto index = util::parse_uint(a), pid = util::parse_uint(b), used = util::parse_uint(mib);
    if (index && pid && used && *pid <= 0xffffffffu && *used < (1ull << 40) && m_processes.size() < 256) {
      m_processes.push_back({static_cast<std::size_t>(*index), static_cast<std::uint32_t>(*pid), name, *used << 20});
      note(number, fmt::format("nvidia-smi: GPU {} process {} ({}) uses {} MiB", a, b, name, mib));
    }
  } else if (line.starts_with("|") && !m_process_table && RE2::PartialMatch(in, p.smi_row, &a, &b)) {
    if (!m_gpus_from_table) m_gpus.clear();
    m_gpus_from_table = true;
    add_gpu(b, number, "nvidia-smi");
    if (RE2::PartialMatch(in, p.smi_ecc, &a) && !m_gpus.empty()) {
      if (auto ecc = util::parse_uint(a); ecc && *ecc > 0 && m_gpus_from_table) {
        m_ecc[m_gpus.size() - 1] = *ecc;
        note(number, fmt::format("nvidia-smi: {} uncorrectable ECC errors", *ecc));
      }
    }
  } else if (line.starts_with("|") && m_gpus_from_table && RE2::PartialMatch(in, p.smi_memory, &a, &b)) {
    auto used = util::parse_uint(a), total = util::parse_uint(b);
    if (used && total && *used < (1ull << 40) && *total < (1ull << 40) && !m_gpus.empty() && !m_memory.contains(m_gpus.size() - 1)) {
      m_memory[m_gpus.size() - 1] = {*used << 20, *total << 20};
      note(number, fmt::format("nvidia-smi: {} MiB of {} MiB in use", a, b));
    }
  } else if (gpu && !m_gpus_from_table && RE2::FullMatch(in, p.gpu_line, &a)) {
    add_gpu(a, number, "GPU list");
  } else if (gpu && !m_gpus_from_table && RE2::FullMatch(in, p.collect_gpu, &a) && a != "No CUDA" && a != "Could not collect") {
    add_gpu(a, number, "collect_env");
  } else if (gpu && !m_gpus_from_table && m_gpus.empty() && !line.starts_with("GPU models and") &&
             RE2::FullMatch(in, p.gpu_field, &a) && a.size() <= 80 && a.find_first_of("0123456789") != std::string::npos) {
    add_gpu(a, number, "the post's GPU field");
  }

  if (version && RE2::PartialMatch(in, p.torch_version, &a) && a != "N/A") {
    set_torch(a, number, "collect_env");
    if (!m_torch_cuda && m_torch_version == a && RE2::PartialMatch(in, p.torch_version_cpu)) {
      m_torch_cuda = "";
      note(number, "the post says this torch is a CPU build");
    }
  }
  if (contains("CUDA used to build") && RE2::PartialMatch(in, p.torch_cuda, &a)) {
    m_torch_cuda = a == "None" ? "" : major_minor(a);
    note(number, "collect_env: CUDA used to build PyTorch: " + a);
  }
  if (contains("available") && RE2::PartialMatch(in, p.cuda_available, &a)) {
    m_cuda_available = a == "True" || a == "Yes";
    note(number, "collect_env: Is CUDA available: " + a);
  }
  if (torch && torch_then_version(line) && RE2::PartialMatch(in, p.torch_package, &a)) set_torch(a, number, "package list");
  if (contains("pytorch ") && RE2::PartialMatch(in, p.conda_pytorch, &a, &b)) {
    std::string build = b;
    if (!m_torch_version) m_torch_version = a;
    std::string cuda = cuda_from_build(build);
    if (!cuda.empty()) m_torch_cuda = cuda;
    else if (build.find("cpu") != std::string::npos) m_torch_cuda = "";
    m_torch_by_conda = true;
    note(number, fmt::format("conda list: pytorch {} {}", a, build));
  }
  if (contains("cpuonly") && RE2::PartialMatch(in, p.conda_cpuonly)) {
    m_conda_cpuonly = true;
    note(number, "conda list: the cpuonly package");
  }
  if (contains("::")) {
    // An update plan ("SUPERSEDED", "UPDATED", "DOWNGRADED") shows "old --> new": what gets installed
    // is the right-hand side.
    std::string_view planned(in.data(), in.size());
    if (auto arrow = planned.find("-->"); arrow != std::string_view::npos) planned = planned.substr(arrow + 3);
    if (RE2::PartialMatch(re2::StringPiece(planned.data(), planned.size()), p.conda_plan_pytorch, &a, &b)) {
      // The build string says what the version may not: py3.7_cpu_0, py3.10_cuda11.8_cudnn8.7.0_0.
      if (a.find('+') == std::string::npos && b.find("cpu") != std::string::npos) a += "+cpu";
      set_torch(a, number, "conda plan");
      m_torch_by_conda = true;
      if (auto cuda = cuda_from_build(b); !cuda.empty() && a.find('+') == std::string::npos) m_torch_cuda = cuda;
    }
    if (RE2::PartialMatch(in, p.conda_plan_cpuonly)) {
      m_conda_cpuonly = true;
      note(number, "conda plan: the cpuonly package");
    }
  }
  if ((contains("ensorflow") || contains("ensorFlow")) && !m_tf_version && RE2::PartialMatch(in, p.tf_version, &b, &a)) {
    m_tf_version = a;
    if (!b.empty()) m_tf_variant = b.substr(1);
    note(number, "TensorFlow " + a);
  }
  // conda's TensorFlow builds name their variant in the build string: eigen_py37... and mkl_py37...
  // are CPU builds (the CUDA ones are gpu_py37...).
  if (contains("ensorflow") && m_tf_variant.empty() && RE2::PartialMatch(in, p.conda_tf_cpu, &a)) {
    m_tf_variant = "cpu";
    note(number, "conda list: TensorFlow's " + a + " build, a CPU build");
  }
  const bool apptainer = contains("ingularity ") || contains("pptainer ");
  if (((contains(" run ") && (contains("docker") || contains("podman"))) || apptainer) &&
      RE2::PartialMatch(in, p.container_run, &a)) {
    // A command that asks for the GPU wins over one that does not (a post often shows both).
    bool gpu_flag = a.find("--gpus") != std::string::npos || a.find("nvidia") != std::string::npos ||
                    a.find(" --nv") != std::string::npos;
    if (!m_container_run || gpu_flag) {
      m_container_run = a.substr(0, 300);
      note(number, "container started with: " + *m_container_run);
    }
  }
  if (!m_cuda_visible_devices && contains("CUDA_VISIBLE_DEVICES")) {
    if (RE2::PartialMatch(in, p.cvd_python, &b) || RE2::PartialMatch(in, p.cvd_shell, &a, &b)) {
      if (b.find('$') == std::string::npos || b == "$0") {
        m_cuda_visible_devices = b.substr(0, 200);
        note(number, fmt::format("CUDA_VISIBLE_DEVICES=\"{}\"", *m_cuda_visible_devices));
      }
    } else if (RE2::PartialMatch(in, p.cvd_empty_prose)) {
      m_cuda_visible_devices = "";
      note(number, "CUDA_VISIBLE_DEVICES is set but empty (the text says so)");
    }
  }
  if (contains("onnxruntime") && m_ort_packages.size() < 8 && RE2::PartialMatch(in, p.ort_package, &a, &b)) {
    for (auto& ch : a) ch = ch == '_' ? '-' : ch;
    auto entry = a + " " + b;
    if (std::find(m_ort_packages.begin(), m_ort_packages.end(), entry) == m_ort_packages.end()) {
      m_ort_packages.push_back(entry);
      note(number, "ONNX Runtime package " + entry);
    }
  }
  // Container specs: their shape, and any request for a GPU anywhere in the text.
  if (line == "services:" && !m_compose_line) {
    m_compose_line = number;
    note(number, "a docker compose file");
  }
  if (line.starts_with("kind:") && !m_kube_line &&
      (contains("Pod") || contains("Deployment") || contains("Job") || contains("StatefulSet") || contains("DaemonSet"))) {
    m_kube_line = number;
    note(number, "a Kubernetes manifest");
  }
  if (line.starts_with("image:") || line.starts_with("- image:")) {
    if (!m_spec_image) m_spec_image = std::string(util::trim(line.substr(line.find(':') + 1))).substr(0, 200);
  }
  if (contains("capabilities:") || contains("runtime: nvidia") || contains("nvidia.com/gpu") ||
      contains("NVIDIA_VISIBLE_DEVICES") || contains("--gpus") || contains("driver: nvidia")) {
    m_spec_asks_gpu = true;
  }
  read_runtime_package(line, number);
  read_system_packages(line, number);
  if (!m_torch_cuda && contains("whl/") && RE2::PartialMatch(in, p.index_url, &a)) {
    if (a == "cpu") m_torch_cuda = "";
    else if (auto cuda = cuda_from_tag(a); !cuda.empty()) m_torch_cuda = cuda;
    note(number, "PyTorch index URL for " + a);
  }
}

// A package that carries a CUDA runtime (see the list at the top). The text may name several (a
// torch wheel's nvidia-cuda-runtime-cu12 next to cupy-cuda11x): the newest is kept, since it is the
// first the driver fails to serve. A major-only name ("cupy-cuda12x") stands for that major's
// first release, the least any of its builds needs.
void ReportReader::read_runtime_package(std::string_view line, std::size_t number) {
  auto contains = [&](std::string_view w) { return line.find(w) != std::string_view::npos; };
  if (!contains("cuda") && !contains("paddle-gpu") && !contains("jaxlib") && !contains("whl/cu")) return;
  const auto& p = patterns();
  re2::StringPiece in(line.data(), line.size());
  std::string name, a, b;
  int major = 0, minor = 0;
  bool major_only = false;
  // A build tag's digits: "117" is 11.7 and "102" 10.2; "92" is 9.2 and "80" 8.0 (CUDA 7-9 had one
  // digit); "11", "12" and "12x" name a major only.
  auto digits = [&](std::string d) {
    if (!d.empty() && d.back() == 'x') {
      d.pop_back();
      major_only = true;
    }
    auto v = util::parse_int(d);
    if (!v) return false;
    if (d.size() == 3) {
      major = static_cast<int>(*v / 10);
      minor = static_cast<int>(*v % 10);
    } else if (d.size() == 2 && d[0] != '1' && !major_only) {
      major = d[0] - '0';
      minor = d[1] - '0';
    } else {
      major = static_cast<int>(*v);
      major_only = true;
    }
    return true;
  };
  bool found = false;
  if (RE2::PartialMatch(in, p.runtime_package, &name, &a, &b)) {
    auto ma = util::parse_int(a), mi = util::parse_int(b);
    if (ma && mi) {
      major = static_cast<int>(*ma);
      minor = static_cast<int>(*mi);
      found = true;
    }
  } else if (RE2::PartialMatch(in, p.cupy_package, &a)) {
    name = "cupy-cuda" + a;
    found = digits(a);
  } else if (RE2::PartialMatch(in, p.paddle_post, &a)) {
    name = "paddlepaddle-gpu (post" + a + ")";
    found = digits(a);
  } else if (RE2::PartialMatch(in, p.jaxlib_cuda, &a)) {
    name = "jaxlib (+cuda" + a + ")";
    found = digits(a);
  } else if (RE2::PartialMatch(in, p.jax_plugin, &a)) {
    name = "jax-cuda" + a + "-plugin";
    found = digits(a);
  } else if ((contains("llama-cpp-python") || contains("llama_cpp_python") || contains("abetlen")) &&
             RE2::PartialMatch(in, p.llama_index, &a)) {
    name = "llama-cpp-python's wheel index cu" + a;
    found = digits(a);
  }
  // A CUDA runtime is 7.0 or newer; a "cudatoolkit 2.1" of some other tool is not one.
  if (!found || major < 7 || major > 99 || minor > 9) return;
  int version = major * 1000 + minor * 10;
  if (m_package_runtime && m_package_runtime->version >= version) return;
  std::string cuda = major_only ? fmt::format("{}.x", major) : fmt::format("{}.{}", major, minor);
  m_package_runtime = PackageRuntime{version, fmt::format("{} (a CUDA {} runtime, line {})", name, cuda, number)};
  note(number, fmt::format("{}: carries a CUDA {} runtime", name, cuda));
}

// Driver and CUDA toolkit packages a package manager lists as installed. Several driver packages
// (two branches side by side, or the meta package next to its libraries): the newest is kept, as
// the one most likely loaded; a driver the text shows running (nvidia-smi) wins over any package.
void ReportReader::read_system_packages(std::string_view line, std::size_t number) {
  auto contains = [&](std::string_view w) { return line.find(w) != std::string_view::npos; };
  const auto& p = patterns();
  re2::StringPiece in(line.data(), line.size());
  std::string a, b;
  if (contains("nvidia")) {
    std::string version;
    if (RE2::PartialMatch(in, p.deb_driver_package, &a, &b) && b.starts_with(a)) version = b;
    else if (RE2::PartialMatch(in, p.rpm_driver_package, &a) || RE2::PartialMatch(in, p.pacman_driver_package, &a)) version = a;
    auto newer = [&] {
      auto have = util::parse_version(*m_package_driver), seen = util::parse_version(version);
      return have && seen && util::compare_versions(*have, *seen) < 0;
    };
    if (!version.empty() && (!m_package_driver || newer())) {
      m_package_driver = version;
      note(number, "installed driver package " + version);
    }
  }
  if (!m_cuda_toolkit && (contains("oolkit") || contains("cuda-"))) {
    if ((RE2::PartialMatch(in, p.toolkit_package, &a, &b) || RE2::PartialMatch(in, p.conda_toolkit, &a, &b) ||
                            RE2::PartialMatch(in, p.toolkit_field, &a, &b))) {
      if (auto major = util::parse_int(a); major && *major >= 7) {
        m_cuda_toolkit = a + "." + b;
        note(number, "CUDA toolkit " + *m_cuda_toolkit + " (package or field)");
      }
    }
  }
}

// Each path of libcuda.so* / libnvidia-ml.so* in the line: a driver library on that machine (a bare
// name only when it carries the driver's version, "libcuda.so.560.35.03").
void ReportReader::read_driver_libraries(std::string_view line, std::size_t number) {
  const auto& p = patterns();
  re2::StringPiece in(line.data(), line.size());
  std::string dir, name, suffix;
  while (m_libraries.size() < 16 && RE2::FindAndConsume(&in, p.driver_library, &dir, &name, &suffix)) {
    auto parts = util::split(suffix.empty() ? std::string_view() : std::string_view(suffix).substr(1), '.');
    bool versioned = parts.size() >= 2;  // ".560.35.03", not ".1"
    if (dir.empty() && !versioned) continue;
    facts::DriverLibrary lib;
    lib.path = dir + name + ".so" + suffix;
    lib.resolved_path = lib.path;
    lib.kind = name == "libcuda" ? facts::DriverLibKind::libcuda : facts::DriverLibKind::libnvidia_ml;
    lib.in_wsl_dir = lib.path.starts_with("/usr/lib/wsl/");
    lib.is_stub = util::contains(lib.path, "/stubs/");
    if (versioned) lib.version = suffix.substr(1);
    if (std::any_of(m_libraries.begin(), m_libraries.end(), [&](const auto& l) { return l.path == lib.path; })) continue;
    note(number, "driver library " + lib.path);
    m_libraries.push_back(std::move(lib));
  }
}

void ReportReader::feed_message(std::string_view id, const std::vector<std::pair<std::string, std::string>>& captures,
                                std::size_t number) {
  auto capture = [&](std::string_view name) -> std::string {
    for (const auto& [k, v] : captures) {
      if (k == name) return v;
    }
    return {};
  };
  if (id == "log.nvml_init_failed" && m_nvml_init_error == 0) {
    if (auto code = util::parse_int(capture("nvml_code")); code && *code > 0 && *code < 1000) {
      m_nvml_init_error = static_cast<int>(*code);
      note(number, fmt::format("NVML failed to initialise: error {}", *code));
    }
  }
  if (id == "log.driver_too_old" && capture("cuda_code") == "35" && !m_insufficient_driver) {
    m_insufficient_driver = true;
    note(number, "the CUDA runtime returned error 35 (cudaErrorInsufficientDriver)");
  }
  // JAX's fallback to the CPU, with no sign that a CUDA backend was there and failed, is a jaxlib
  // without CUDA: a CUDA plugin that fails says so ("Unable to initialize backend 'cuda'", "CUDA
  // backend failed to initialize"), as do the CUDA errors below it. Newer JAX says it outright ("a
  // CUDA-enabled jaxlib is not installed", the row that captures `platform`).
  if (id == "log.jax_cpu_fallback") {
    if (!capture("reason").empty()) m_cuda_attempted = true;
    else if (!capture("platform").empty()) m_jax_cpu = true;
    else m_jax_fallback = true;
    if (m_jax_fallback_line == 0) note(number, "JAX runs on the CPU");
    if (m_jax_fallback_line == 0) m_jax_fallback_line = number;
  } else if (id == "log.jax_extra_missing") {
    m_jax_cpu = true;
    if (m_jax_fallback_line == 0) note(number, "pip installed JAX without its CUDA extra");
    if (m_jax_fallback_line == 0) m_jax_fallback_line = number;
  } else if (id.starts_with("log.cuda") || id.starts_with("log.jax_") || id.starts_with("log.nvml") ||
             id == "log.driver_too_old" || id == "log.no_nvidia_driver" || id == "log.libcuda_not_found" ||
             id == "log.stub_libcuda" || id == "log.tf_missing_library") {
    m_cuda_attempted = true;
  }
  if (id == "log.cuda_visible_devices_none" && !m_cuda_no_device) {
    m_cuda_no_device = true;
    note(number, "the CUDA runtime found no device (cudaErrorNoDevice)");
  }
}

// A torch version without a local tag ("1.7.1") as PyPI ships it: the CUDA of the default wheel of
// that release series ("" for a CPU-only wheel), on Linux or Windows as the text says; nullopt when
// the table has no row, the text came from conda (its builds are named otherwise), or Windows had no
// wheel then.
std::optional<std::string> ReportReader::pypi_default(const std::string& version) const {
  if (version.empty() || version.find('+') != std::string::npos || m_conda) return std::nullopt;
  auto parts = util::split(version, '.');
  if (parts.size() < 2) return std::nullopt;
  auto series = fmt::format("{}.{}", parts[0], parts[1]);
  const auto& t = data::table("torch_pypi_default.tsv");
  for (std::size_t r = 0; r < t.size(); ++r) {
    if (t.at(r, "torch") != series) continue;
    const auto& v = t.at(r, m_windows && !m_wsl ? "windows" : "linux");
    if (v == "cpu") return std::string();
    if (v.starts_with("cuda:")) return v.substr(5);
    return std::nullopt;
  }
  return std::nullopt;
}

// What the text's TensorFlow was built for. The pip package is a CUDA build on Linux from 2.1 on
// (tensorflow-gpu before), and on native Windows from 2.1 to 2.10; tensorflow-cpu never is. The
// CUDA and cuDNN versions come from the tested build configurations (data/tf_gpu_builds.tsv).
void ReportReader::add_readings_about(std::initializer_list<std::string_view> words, std::vector<std::string>& evidence) const {
  for (const auto& r : m_readings) {
    if (std::any_of(words.begin(), words.end(), [&](std::string_view w) { return util::contains(r.what, w); })) {
      evidence.push_back(fmt::format("line {}: {}", r.line, r.what));
    }
  }
}

void ReportReader::tf_build(facts::FrameworkBuild& b) const {
  auto v = util::parse_version(b.version);
  if (!v || v->size() < 2) return;
  bool windows = m_windows && !m_wsl;
  if (m_tf_variant == "cpu") {
    b.kind = facts::BuildKind::cpu;
    return;
  }
  bool gpu_package = m_tf_variant == "gpu" || util::compare_versions(*v, {2, 1}) >= 0;
  if (windows && util::compare_versions(*v, {2, 11}) >= 0) gpu_package = false;
  if (!gpu_package) return;
  const auto& t = data::table("tf_gpu_builds.tsv");
  auto series = fmt::format("{}.{}", (*v)[0], (*v)[1]);
  for (std::size_t r = 0; r < t.size(); ++r) {
    if (t.at(r, "tf") != series) continue;
    b.kind = facts::BuildKind::cuda;
    b.cuda_version = t.at(r, "cuda");
    b.cudnn_version = t.at(r, "cudnn");
    b.evidence.push_back(fmt::format("TensorFlow {} was built and tested with CUDA {} and cuDNN {} "
                                     "(data/tf_gpu_builds.tsv)",
                                     series, b.cuda_version, b.cudnn_version));
    return;
  }
}

void ReportReader::read_oneliner_output(std::string_view line, std::size_t number) {
  auto values = util::split(util::trim(line), ' ');
  std::erase_if(values, [](std::string_view v) { return v.empty(); });
  std::vector<std::string> unquoted;
  for (auto v : values) {
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
    unquoted.emplace_back(v);
  }
  // What each print prints: a version (1), a CUDA version or None (2), True or False (3).
  auto fits = [](int which, const std::string& v) {
    bool digit = !v.empty() && std::isdigit(static_cast<unsigned char>(v[0]));
    if (which == 1) return digit;
    if (which == 2) return v == "None" || digit;
    if (which == 3) return v == "True" || v == "False";
    return true;
  };
  const auto& expected = m_oneliner_prints.front();
  bool shape = expected == std::vector<int>{0} ||
               (unquoted.size() == expected.size() &&
                [&] {
                  for (std::size_t i = 0; i < expected.size(); ++i)
                    if (!fits(expected[i], unquoted[i])) return false;
                  return true;
                }());
  if (!shape) {
    // A few words before the output ("returned:", "Output:") are passed over; anything else ends it.
    if (m_oneliner_skipped++ < 3 && unquoted.size() <= 3) return;
    m_oneliner_prints.clear();
    m_pending_repl = 0;
    return;
  }
  std::vector<int> which_of = std::move(m_oneliner_prints.front());
  m_oneliner_prints.erase(m_oneliner_prints.begin());
  if (m_oneliner_prints.empty()) m_pending_repl = 0;
  if (which_of == std::vector<int>{0}) return;
  for (std::size_t i = 0; i < unquoted.size(); ++i) {
    const std::string& v = unquoted[i];
    if (which_of[i] == 1 && !v.empty() && std::isdigit(static_cast<unsigned char>(v[0]))) set_torch(v, number, "python -c: torch.__version__");
    if (which_of[i] == 2) {
      m_torch_cuda = v == "None" ? "" : major_minor(v);
      note(number, fmt::format("python -c: torch.version.cuda = {}", v));
    }
    if (which_of[i] == 3 && (v == "True" || v == "False")) {
      m_cuda_available = v == "True";
      note(number, "python -c: torch.cuda.is_available() = " + v);
    }
  }
}

facts::Facts ReportReader::facts() const {
  facts::Facts f;
  f.meta.hostname = facts::Known<std::string>::unknown("not in the text");
  f.meta.from_text = true;
  std::optional<std::string> launch = m_container_run;
  if (!launch && m_spec_image && !m_spec_asks_gpu && (m_compose_line || m_kube_line)) {
    launch = m_compose_line ? fmt::format("docker compose service (image: {}) without a GPU device reservation", *m_spec_image)
                            : fmt::format("Kubernetes pod (image: {}) without an nvidia.com/gpu limit", *m_spec_image);
  }
  if (launch) {
    f.environment.container.launch_command = *launch;
    f.environment.container.in_container = true;
    f.environment.container.runtime = launch->find("podman") != std::string::npos        ? "podman"
                                      : launch->starts_with("Kubernetes")              ? "kubernetes"
                                      : launch->find("apptainer") != std::string::npos ? "apptainer"
                                      : launch->find("singularity") != std::string::npos ? "singularity"
                                                                                         : "docker";
  }
  if (m_cuda_visible_devices) {
    f.environment.env = std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", *m_cuda_visible_devices}};
  }
  if (m_cudart_version) {
    f.driver.cudart.runtime_version = *m_cudart_version;
    f.driver.cudart.library.requested = m_cudart_path;
  } else if (m_package_runtime) {
    f.driver.cudart.runtime_version = m_package_runtime->version;
    f.driver.cudart.library.requested = m_package_runtime->what;
  } else if (m_cuda_toolkit && !m_torch_version && !m_torch_cuda && !m_conda_cpuonly && m_ort_packages.empty()) {
    // No framework that ships its own runtime (torch, ONNX Runtime's CUDA package): programs built
    // with this toolkit (and TensorFlow, JAX or CuPy set up on it) load its runtime.
    auto v = util::parse_version(*m_cuda_toolkit);
    if (v && v->size() >= 2 && (*v)[0] >= 7 && (*v)[0] < 100 && (*v)[1] < 10) {
      f.driver.cudart.runtime_version = (*v)[0] * 1000 + (*v)[1] * 10;
      f.driver.cudart.library.requested = fmt::format("the CUDA {} toolkit the text shows", *m_cuda_toolkit);
    }
  }
  if (m_insufficient_driver) {
    f.driver.cudart.device_count_result = 35;
    f.driver.cudart.device_count_error = "cudaErrorInsufficientDriver";
  }
  if (m_cuda_no_device) {
    f.driver.cudart.device_count_result = 100;  // cudaErrorNoDevice
    f.driver.cudart.device_count_error = "cudaErrorNoDevice";
    f.driver.cudart.device_count = 0;
  }
  if (m_wsl) {
    f.environment.wsl.is_wsl = true;
    f.environment.wsl.is_wsl2 = m_wsl2 && !m_wsl1;
    f.environment.wsl.dxg = facts::Known<bool>::unknown("not in the text");
    // WSL 1 has no /dev/dxg: GPU paravirtualisation is WSL 2's.
    if (m_wsl1 && !m_wsl2) f.environment.wsl.dxg = false;
    if (m_windows_build) f.environment.wsl.windows_build = *m_windows_build;
    if (m_wsl_kernel) f.environment.kernel.release = *m_wsl_kernel;
  }
  f.environment.libraries.libraries = m_libraries;
  if (m_cuda_toolkit) f.environment.libraries.cuda_toolkit_version = *m_cuda_toolkit;
  if (m_nvml_init_error != 0) f.driver.nvml.init_error.code = m_nvml_init_error;
  // WSL runs Linux on Windows: a post about WSL is not about native Windows.
  if (m_windows && !m_wsl) f.meta.os_pretty_name = std::string(k_windows_os_name);
  auto& nvml = f.driver.nvml;
  if (m_driver_version) nvml.driver_version = *m_driver_version;
  else if (m_package_driver) nvml.driver_version = *m_package_driver;
  if (m_driver_cuda) nvml.cuda_driver_version = *m_driver_cuda;
  for (std::size_t i = 0; i < m_gpus.size(); ++i) {
    facts::NvmlDevice d;
    d.index = static_cast<int>(i);
    d.name = m_gpus[i];
    nvml.devices.push_back(std::move(d));
  }
  if (!m_gpus.empty() && m_gpus_from_table) nvml.device_count = static_cast<int>(m_gpus.size());
  for (std::size_t i = 0; i < nvml.devices.size(); ++i) {
    auto& d = nvml.devices[i];
    if (auto it = m_memory.find(i); it != m_memory.end()) {
      d.memory_used = it->second.first;
      d.memory_total = it->second.second;
    }
    if (auto it = m_ecc.find(i); it != m_ecc.end()) d.ecc_uncorrectable_volatile = it->second;
    // A process table that was shown lists every process nvidia-smi could see: none is a fact.
    if (m_process_table && m_gpus_from_table) {
      std::vector<facts::GpuProcess> procs;
      for (const auto& p : m_processes) {
        if (p.gpu != i) continue;
        facts::GpuProcess g;
        g.pid = p.pid;
        g.used_memory = p.bytes;
        g.command = p.name;
        procs.push_back(std::move(g));
      }
      d.processes = std::move(procs);
    }
  }

  bool cpu = m_conda_cpuonly || (m_torch_cuda && m_torch_cuda->empty());
  facts::PythonEnvironment env;
  env.label = "the Python environment the text describes";
  env.sys_path = facts::Known<std::vector<std::string>>::unknown("not in the text");
  if (m_tf_version) {
    facts::FrameworkBuild b;
    b.framework = facts::Framework::tensorflow;
    b.version = *m_tf_version;
    tf_build(b);
    b.kernel_images = facts::Known<std::vector<facts::FatbinSummary>>::unknown("not in the text");
    add_readings_about({"TensorFlow"}, b.evidence);
    env.builds.push_back(std::move(b));
  }
  if (m_torch_version || m_torch_cuda || m_conda_cpuonly) {
    facts::FrameworkBuild b;
    b.framework = facts::Framework::torch;
    b.version = m_torch_version.value_or("");
    if (b.version.find("+rocm") != std::string::npos) {
      b.kind = facts::BuildKind::rocm;
    } else if (cpu) {
      b.kind = facts::BuildKind::cpu;
    } else if (m_torch_cuda) {
      b.kind = facts::BuildKind::cuda;
      b.cuda_version = *m_torch_cuda;
    } else if (auto d = pypi_default(b.version)) {
      b.kind = d->empty() ? facts::BuildKind::cpu : facts::BuildKind::cuda;
      b.cuda_version = *d;
      b.evidence.push_back(fmt::format("torch {} has no local version tag: the PyPI wheel for {} is {} (data/torch_pypi_default.tsv)",
                                       b.version, m_windows && !m_wsl ? "Windows" : "Linux",
                                       d->empty() ? "a CPU-only build" : "built for CUDA " + *d));
      b.installer = "pip";
    }
    if (m_torch_by_conda || m_conda_cpuonly) b.installer = "conda";
    b.kernel_images = facts::Known<std::vector<facts::FatbinSummary>>::unknown("not in the text");
    add_readings_about({"torch", "cpuonly"}, b.evidence);  // "pytorch" holds "torch"
    env.builds.push_back(std::move(b));
  }
  if (!m_ort_packages.empty()) {
    facts::FrameworkBuild b;
    b.framework = facts::Framework::onnxruntime;
    // The import directory holds whichever package was installed last; the text cannot say which.
    b.distribution = m_ort_packages.front().substr(0, m_ort_packages.front().find(' '));
    b.version = m_ort_packages.front().substr(m_ort_packages.front().find(' ') + 1);
    b.companions = m_ort_packages;
    b.kernel_images = facts::Known<std::vector<facts::FatbinSummary>>::unknown("not in the text");
    add_readings_about({"ONNX Runtime"}, b.evidence);
    env.builds.push_back(std::move(b));
  }
  if (m_jax_cpu || (m_jax_fallback && !m_cuda_attempted)) {
    facts::FrameworkBuild b;
    b.framework = facts::Framework::jax;
    b.kind = facts::BuildKind::cpu;
    b.kernel_images = facts::Known<std::vector<facts::FatbinSummary>>::unknown("not in the text");
    b.evidence.push_back(m_jax_cpu ? fmt::format("line {}: JAX says no CUDA-enabled jaxlib is installed", m_jax_fallback_line)
                                   : fmt::format("line {}: JAX fell back to the CPU, and the text shows no CUDA backend "
                                                 "that failed: its jaxlib has none",
                                                 m_jax_fallback_line));
    env.builds.push_back(std::move(b));
  }
  if (!env.builds.empty()) f.framework.environments = std::vector<facts::PythonEnvironment>{std::move(env)};
  return f;
}

}  // namespace gpudoctor::probe::text
