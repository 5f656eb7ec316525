#include <watch/timeline.hpp>

#include <util/json_number.hpp>

#include <array>

namespace gpudoctor::watch {
namespace {

struct LibraryName {
  GpuLibrary library;
  std::string_view name;  // also the file-name prefix before ".so"
};

// libnvidia-ml's file name has a dash; its JSON name follows our snake_case.
constexpr std::array<LibraryName, 9> k_libraries = {{
    {GpuLibrary::libcuda, "libcuda"},
    {GpuLibrary::libcudart, "libcudart"},
    {GpuLibrary::libnvidia_ml, "libnvidia_ml"},
    {GpuLibrary::libtorch_cuda, "libtorch_cuda"},
    {GpuLibrary::libcublas, "libcublas"},
    {GpuLibrary::libcudnn, "libcudnn"},
    {GpuLibrary::libnccl, "libnccl"},
    {GpuLibrary::libamdhip64, "libamdhip64"},
    {GpuLibrary::libhsa_runtime64, "libhsa_runtime64"},
}};

constexpr std::array<std::pair<std::string_view, GpuLibrary>, 9> k_file_prefixes = {{
    {"libcuda.so", GpuLibrary::libcuda},
    {"libcudart.so", GpuLibrary::libcudart},
    {"libnvidia-ml.so", GpuLibrary::libnvidia_ml},
    {"libtorch_cuda.so", GpuLibrary::libtorch_cuda},
    {"libcublas.so", GpuLibrary::libcublas},
    {"libcudnn.so", GpuLibrary::libcudnn},
    {"libnccl.so", GpuLibrary::libnccl},
    {"libamdhip64.so", GpuLibrary::libamdhip64},
    {"libhsa-runtime64.so", GpuLibrary::libhsa_runtime64},
}};

facts::Severity severity_from(const std::string& s) {
  for (auto v : {facts::Severity::error, facts::Severity::warning, facts::Severity::info}) {
    if (s == facts::to_string(v)) return v;
  }
  return facts::Severity::info;
}

EventKind kind_from(const std::string& s) {
  for (auto v : {EventKind::log, EventKind::exit, EventKind::note}) {
    if (s == to_string(v)) return v;
  }
  return EventKind::note;
}

template <typename T>
void put_known(nlohmann::json& j, const char* key, const Known<T>& k) {
  j[key] = k;
}

template <typename T>
void get_known(const nlohmann::json& j, const char* key, Known<T>& k) {
  if (j.contains(key)) {
    k = j.at(key).get<Known<T>>();
  } else {
    k = Known<T>::unknown("not recorded");
  }
}

}  // namespace

std::vector<std::string> library_names(std::uint32_t mask) {
  std::vector<std::string> out;
  for (const auto& l : k_libraries) {
    if ((mask & static_cast<std::uint32_t>(l.library)) != 0) out.emplace_back(l.name);
  }
  return out;
}

std::uint32_t library_mask(const std::vector<std::string>& names) {
  std::uint32_t mask = 0;
  for (const auto& n : names) {
    for (const auto& l : k_libraries) {
      if (n == l.name) mask |= static_cast<std::uint32_t>(l.library);
    }
  }
  return mask;
}

std::uint32_t library_of_path(std::string_view path) {
  auto slash = path.rfind('/');
  std::string_view file = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (const auto& [prefix, lib] : k_file_prefixes) {
    // "libcuda.so" must not claim "libcudart.so": the prefix includes ".so".
    if (file.starts_with(prefix)) return static_cast<std::uint32_t>(lib);
  }
  return 0;
}

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::log: return "log";
    case EventKind::exit: return "exit";
    case EventKind::note: return "note";
  }
  return "note";
}

void to_json(nlohmann::json& j, const ProcessSample& p) {
  j = {{"pid", p.pid}, {"ppid", p.ppid}, {"name", p.name}, {"threads", p.threads}, {"rss_bytes", p.rss_bytes},
       {"libraries", library_names(p.libraries)}, {"devices", p.devices}};
  put_known(j, "cpu_percent", p.cpu_percent);
  put_known(j, "gpu_memory_bytes", p.gpu_memory_bytes);
  put_known(j, "gpu_sm_percent", p.gpu_sm_percent);
}

void from_json(const nlohmann::json& j, ProcessSample& p) {
  p.pid = util::json_number_or(j, "pid", 0);
  p.ppid = util::json_number_or(j, "ppid", 0);
  p.name = j.value("name", "");
  p.threads = util::json_number_or(j, "threads", 0);
  p.rss_bytes = util::json_number_or(j, "rss_bytes", std::uint64_t{0});
  p.libraries = library_mask(j.value("libraries", std::vector<std::string>{}));
  p.devices = j.value("devices", std::vector<std::string>{});
  get_known(j, "cpu_percent", p.cpu_percent);
  get_known(j, "gpu_memory_bytes", p.gpu_memory_bytes);
  get_known(j, "gpu_sm_percent", p.gpu_sm_percent);
}

void to_json(nlohmann::json& j, const GpuSample& g) {
  j = {{"index", g.index}, {"name", g.name}};
  put_known(j, "busy_percent", g.busy_percent);
  put_known(j, "memory_busy_percent", g.memory_busy_percent);
  put_known(j, "memory_used_bytes", g.memory_used_bytes);
  put_known(j, "memory_total_bytes", g.memory_total_bytes);
  put_known(j, "power_watts", g.power_watts);
  put_known(j, "throttle_reasons", g.throttle_reasons);
}

void from_json(const nlohmann::json& j, GpuSample& g) {
  // A float or an out-of-range index must not be cast to int (undefined behaviour).
  const auto idx = j.find("index");
  g.index = idx != j.end() && idx->is_number_integer() && idx->get<std::int64_t>() >= 0 && idx->get<std::int64_t>() < 1024
                ? static_cast<int>(idx->get<std::int64_t>())
                : 0;
  g.name = j.value("name", "");
  get_known(j, "busy_percent", g.busy_percent);
  get_known(j, "memory_busy_percent", g.memory_busy_percent);
  get_known(j, "memory_used_bytes", g.memory_used_bytes);
  get_known(j, "memory_total_bytes", g.memory_total_bytes);
  get_known(j, "power_watts", g.power_watts);
  get_known(j, "throttle_reasons", g.throttle_reasons);
}

void to_json(nlohmann::json& j, const Sample& s) { j = {{"t", s.t}, {"processes", s.processes}, {"gpus", s.gpus}}; }

void from_json(const nlohmann::json& j, Sample& s) {
  s.t = util::json_number_or(j, "t", 0.0);
  s.processes = j.value("processes", std::vector<ProcessSample>{});
  s.gpus = j.value("gpus", std::vector<GpuSample>{});
}

void to_json(nlohmann::json& j, const Event& e) {
  j = {{"t", e.t}, {"kind", to_string(e.kind)}, {"id", e.id}, {"severity", facts::to_string(e.severity)},
       {"text", e.text}};
}

void from_json(const nlohmann::json& j, Event& e) {
  e.t = util::json_number_or(j, "t", 0.0);
  e.kind = kind_from(j.value("kind", "note"));
  e.id = j.value("id", "");
  e.severity = severity_from(j.value("severity", "info"));
  e.text = j.value("text", "");
}

void to_json(nlohmann::json& j, const Timeline& t) {
  j = {{"subject", t.subject == Subject::child ? "child" : "existing_process"},
       {"command", t.command},
       {"root_pid", t.root_pid},
       {"interval_s", t.interval_s},
       {"duration_s", t.duration_s},
       {"term_signal", t.term_signal},
       {"executables", t.executables},
       {"gpu_source", t.gpu_source},
       {"samples", t.samples},
       {"events", t.events}};
  put_known(j, "exit_status", t.exit_status);
  put_known(j, "observer_cpu_seconds", t.observer_cpu_seconds);
}

void from_json(const nlohmann::json& j, Timeline& t) {
  t.subject = j.value("subject", "child") == "child" ? Subject::child : Subject::existing_process;
  t.command = j.value("command", std::vector<std::string>{});
  t.root_pid = util::json_number_or(j, "root_pid", 0);
  t.interval_s = util::json_number_or(j, "interval_s", 0.5);
  t.duration_s = util::json_number_or(j, "duration_s", 0.0);
  t.term_signal = util::json_number_or(j, "term_signal", 0);
  t.executables = j.value("executables", std::vector<std::string>{});
  t.gpu_source = j.value("gpu_source", "");
  t.samples = j.value("samples", std::vector<Sample>{});
  t.events = j.value("events", std::vector<Event>{});
  get_known(j, "exit_status", t.exit_status);
  get_known(j, "observer_cpu_seconds", t.observer_cpu_seconds);
}

}  // namespace gpudoctor::watch
