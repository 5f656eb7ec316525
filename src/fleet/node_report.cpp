#include <fleet/node_report.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <util/text.hpp>

namespace gpudoctor::fleet {
namespace {

using Json = nlohmann::json;

// What each path of a report means to the fleet. Arrays are "[]" in a path.
enum class Field {
  none,
  schema_version,
  tool_version,
  command,
  host,
  time,
  finding_id,
  finding_severity,
  finding_layer,
  finding_message,
  finding_evidence,
  finding_explained_by,
  kernel_release,
  kernel_nvidia_version,
  kernel_gpu_model,
  nvml_driver_version,
  nvml_cuda_driver_version,
  nvml_gpu_name,
  cuda_driver_version,
  meta_hostname,
  env_interpreter,
  build_framework,
  build_version,
  build_kind,
  build_cuda,
};

struct PathField {
  std::string_view path;
  Field field;
};

constexpr PathField k_fields[] = {
    {"/schema_version", Field::schema_version},
    {"/tool_version", Field::tool_version},
    {"/command", Field::command},
    {"/host", Field::host},
    {"/time", Field::time},
    {"/findings/[]/id", Field::finding_id},
    {"/findings/[]/severity", Field::finding_severity},
    {"/findings/[]/layer", Field::finding_layer},
    {"/findings/[]/message", Field::finding_message},
    {"/findings/[]/evidence/[]", Field::finding_evidence},
    {"/findings/[]/explained_by/[]", Field::finding_explained_by},
    {"/facts/environment/kernel/release", Field::kernel_release},
    {"/facts/environment/kernel/nvidia_version", Field::kernel_nvidia_version},
    {"/facts/environment/kernel/nvidia_gpus/[]/model", Field::kernel_gpu_model},
    {"/facts/driver/nvml/driver_version", Field::nvml_driver_version},
    {"/facts/driver/nvml/cuda_driver_version", Field::nvml_cuda_driver_version},
    {"/facts/driver/nvml/devices/[]/name", Field::nvml_gpu_name},
    {"/facts/driver/cuda/driver_version", Field::cuda_driver_version},
    {"/facts/meta/hostname", Field::meta_hostname},
    {"/facts/framework/environments/[]/interpreter", Field::env_interpreter},
    {"/facts/framework/environments/[]/builds/[]/framework", Field::build_framework},
    {"/facts/framework/environments/[]/builds/[]/version", Field::build_version},
    {"/facts/framework/environments/[]/builds/[]/kind", Field::build_kind},
    {"/facts/framework/environments/[]/builds/[]/cuda_version", Field::build_cuda},
};

// Objects whose start opens a new element of a list the fleet keeps.
constexpr std::string_view k_finding_path = "/findings/[]";
constexpr std::string_view k_environment_path = "/facts/framework/environments/[]";
constexpr std::string_view k_build_path = "/facts/framework/environments/[]/builds/[]";

// Fields are short; a hostile report's megabyte-long strings are cut.
constexpr std::size_t k_max_field = 4096;

std::string cut(const std::string& s) {
  return s.size() <= k_max_field ? s : s.substr(0, k_max_field) + "...";
}

std::string cuda_version_text(std::int64_t v) {
  // cuDriverGetVersion / nvmlSystemGetCudaDriverVersion: 1000 * major + 10 * minor.
  if (v <= 0 || v > 1000000) return "";
  return fmt::format("{}.{}", v / 1000, (v % 1000) / 10);
}

class ReportSax : public nlohmann::json_sax<Json> {
 public:
  explicit ReportSax(NodeReport& r) : m_r(r) {}

  bool null() override { return scalar_done(); }
  bool boolean(bool) override { return scalar_done(); }
  bool number_integer(number_integer_t v) override { return integer(v); }
  bool number_unsigned(number_unsigned_t v) override {
    return integer(v > static_cast<number_unsigned_t>(INT64_MAX) ? -1 : static_cast<std::int64_t>(v));
  }
  bool number_float(number_float_t, const string_t&) override { return scalar_done(); }
  bool binary(binary_t&) override { return scalar_done(); }
  bool string(string_t& s) override {
    Field f = field_here();
    if (f == Field::none) return true;
    std::string v = cut(s);
    switch (f) {
      case Field::tool_version: m_r.tool_version = v; break;
      case Field::command: m_r.command = v; break;
      case Field::host: m_r.host = v; break;
      case Field::time: m_r.time = v; break;
      case Field::finding_id: if (finding()) finding()->id = v; break;
      case Field::finding_severity:
        if (finding()) {
          for (auto sev : {facts::Severity::error, facts::Severity::warning, facts::Severity::info})
            if (v == facts::to_string(sev)) finding()->severity = sev;
        }
        break;
      case Field::finding_layer:
        if (finding()) {
          for (auto l : {facts::Layer::environment, facts::Layer::driver, facts::Layer::framework, facts::Layer::code,
                         facts::Layer::run})
            if (v == facts::to_string(l)) finding()->layer = l;
        }
        break;
      case Field::finding_message: if (finding()) finding()->message = v; break;
      case Field::finding_evidence:
        if (finding() && finding()->evidence.empty()) finding()->evidence = v;
        break;
      case Field::finding_explained_by: if (finding()) finding()->explained = true; break;
      case Field::kernel_release: m_r.kernel = v; break;
      case Field::kernel_nvidia_version: m_module_version = v; break;
      case Field::kernel_gpu_model: m_module_gpus.push_back(v); break;
      case Field::nvml_driver_version: m_nvml_version = v; break;
      case Field::nvml_gpu_name: m_nvml_gpus.push_back(v); break;
      case Field::meta_hostname: m_meta_hostname = v; break;
      case Field::env_interpreter: m_interpreter = v; break;
      case Field::build_framework: if (build()) build()->framework = v; break;
      case Field::build_version: if (build()) build()->version = v; break;
      case Field::build_kind: if (build()) build()->kind = v; break;
      case Field::build_cuda: if (build()) build()->cuda = v; break;
      default: break;
    }
    return scalar_done();
  }

  bool start_object(std::size_t) override {
    open(false);
    if (m_path == k_finding_path) {
      m_r.findings.emplace_back();
      m_in_finding = true;
    } else if (m_path == k_environment_path) {
      m_interpreter.clear();
      m_env_first_build = m_r.builds.size();
    } else if (m_path == k_build_path) {
      m_r.builds.push_back({"", "", "", "", ""});
      m_in_build = true;
    }
    return depth_ok();
  }
  bool end_object() override {
    if (m_path == k_finding_path) m_in_finding = false;
    if (m_path == k_build_path) m_in_build = false;
    // Keys come in any order (the writer sorts them: "builds" before "interpreter").
    if (m_path == k_environment_path)
      for (std::size_t i = m_env_first_build; i < m_r.builds.size(); ++i) m_r.builds[i].interpreter = m_interpreter;
    close();
    return true;
  }
  bool start_array(std::size_t) override {
    open(true);
    return depth_ok();
  }
  bool end_array() override {
    close();
    return true;
  }
  bool key(string_t& k) override {
    if (!m_stack.empty() && !m_stack.back().relevant) return true;
    m_key = k.size() <= 64 ? k : std::string("?");
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    m_error = fmt::format("not valid JSON at byte {} ({})", position, e.what());
    return false;
  }

  void finish() {
    m_r.driver_version = !m_module_version.empty() ? m_module_version : m_nvml_version;
    if (m_r.cuda_driver_api.empty()) m_r.cuda_driver_api = m_cuda_api_fallback;
    m_r.gpu_models = !m_nvml_gpus.empty() ? m_nvml_gpus : m_module_gpus;
    if (m_r.host.empty()) m_r.host = m_meta_hostname;
  }

  const std::string& error() const { return m_error; }
  bool too_deep() const { return m_too_deep; }

 private:
  struct Frame {
    std::size_t length;  // m_path's length before this container
    bool array;
    bool relevant;       // some field the fleet reads lies under this container
  };

  // The path of the value being read: its container's path plus its key, or "[]" in an array.
  std::string child_path() const {
    if (!m_stack.empty() && m_stack.back().array) return m_path + "/[]";
    return m_path + "/" + m_key;
  }
  Field field_here() const {
    // Most of a report (package lists, PCI devices) is nothing the fleet reads: no path is built there.
    if (!m_stack.empty() && !m_stack.back().relevant) return Field::none;
    std::string p = child_path();
    for (const auto& pf : k_fields)
      if (pf.path == p) return pf.field;
    return Field::none;
  }
  bool integer(std::int64_t v) {
    switch (field_here()) {
      case Field::schema_version: m_r.schema_version = v > 0 && v < 1000000 ? static_cast<int>(v) : -1; break;
      case Field::nvml_cuda_driver_version: m_r.cuda_driver_api = cuda_version_text(v); break;
      case Field::cuda_driver_version: m_cuda_api_fallback = cuda_version_text(v); break;
      default: break;
    }
    return scalar_done();
  }
  bool scalar_done() { return true; }
  void open(bool array) {
    std::size_t before = m_path.size();
    bool parent_relevant = m_stack.empty() || m_stack.back().relevant;
    if (m_stack.empty() && before == 0 && !m_opened_root) {
      m_opened_root = true;  // the document itself has the empty path
    } else if (parent_relevant) {
      m_path = child_path();
    }
    m_stack.push_back({before, array, parent_relevant && leads_to_a_field(m_path)});
  }
  static bool leads_to_a_field(const std::string& path) {
    for (const auto& pf : k_fields)
      if (pf.path.size() > path.size() && pf.path.substr(0, path.size()) == path && pf.path[path.size()] == '/') return true;
    return false;
  }
  void close() {
    if (m_stack.empty()) return;
    m_path.resize(m_stack.back().length);
    m_stack.pop_back();
  }
  bool depth_ok() {
    if (m_stack.size() > 256) {
      m_too_deep = true;
      m_error = "nested more than 256 levels deep";
      return false;
    }
    return true;
  }
  NodeFinding* finding() { return m_in_finding && !m_r.findings.empty() ? &m_r.findings.back() : nullptr; }
  FrameworkBuild* build() { return m_in_build && !m_r.builds.empty() ? &m_r.builds.back() : nullptr; }

  NodeReport& m_r;
  std::string m_path;
  std::string m_key;
  std::vector<Frame> m_stack;
  bool m_opened_root = false;
  bool m_in_finding = false;
  bool m_in_build = false;
  bool m_too_deep = false;
  std::string m_error;
  std::string m_module_version;
  std::string m_nvml_version;
  std::string m_cuda_api_fallback;
  std::vector<std::string> m_module_gpus;
  std::vector<std::string> m_nvml_gpus;
  std::string m_meta_hostname;
  std::string m_interpreter;
  std::size_t m_env_first_build = 0;
};

// The index of the bracket that closes the '[' or '{' at `open` (brackets inside strings and escaped
// characters skipped), or npos when the text ends first. With `stop_at_next_value`, a line that
// starts with '{' before the close ends the search there, returning that line's '\n': in a stream of
// reports (JSON lines, or reports printed one after another) it is the next report, and the one at
// `open` was cut short. A report never starts a line with '{' inside itself (JSON strings hold no
// raw newline, and nested objects are indented), so a whole report is never cut.
std::size_t matching_close(std::string_view text, std::size_t open, bool stop_at_next_value = false) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (stop_at_next_value && c == '\n' && i + 1 < text.size() && text[i + 1] == '{') return i;
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

// Each Python environment's "distributions" (every installed package with its metadata path) is
// more than half of a live report's bytes, and the fleet never reads it. The lists are cut out
// textually before parsing (brackets matched outside strings), which halves the parse. A report
// that fakes the key inside a string only changes what of itself is read.
std::string_view without_package_lists(std::string_view json, std::string& buffer) {
  constexpr std::string_view k_key = "\"distributions\":";
  std::size_t at = json.find(k_key);
  if (at == std::string_view::npos) return json;
  buffer.clear();
  buffer.reserve(json.size());
  std::size_t done = 0;
  while (at != std::string_view::npos) {
    std::size_t open = at + k_key.size();
    while (open < json.size() && (json[open] == ' ' || json[open] == '\n' || json[open] == '\r' || json[open] == '\t')) ++open;
    if (open >= json.size() || json[open] != '[') {
      at = json.find(k_key, at + 1);
      continue;
    }
    std::size_t i = matching_close(json, open);
    if (i == std::string_view::npos) break;  // unbalanced: the parse says where
    buffer.append(json.substr(done, open - done));
    buffer.append("[]");
    done = i + 1;
    at = json.find(k_key, done);
  }
  buffer.append(json.substr(done));
  return buffer;
}

sys::Error invalid(std::string_view source, std::string_view why) {
  return {sys::ErrorCode::invalid, fmt::format("{}: {}", util::printable(source), why)};
}

}  // namespace

sys::Expected<NodeReport> parse_node_report(std::string_view json, std::string source) {
  if (json.size() > k_max_report_bytes)
    return invalid(source, fmt::format("{} MB is not a check report (the limit is {} MB)", json.size() >> 20,
                                       k_max_report_bytes >> 20));
  NodeReport r;
  r.source = std::move(source);
  ReportSax sax(r);
  std::string buffer;
  json = without_package_lists(json, buffer);
  bool ok = Json::sax_parse(json.begin(), json.end(), &sax, nlohmann::detail::input_format_t::json, true);
  if (!ok) return invalid(r.source, sax.error().empty() ? "not valid JSON" : sax.error());
  sax.finish();
  if (r.schema_version == 0 || r.command.empty())
    return invalid(r.source, "not a gpudoctor report (no schema_version or command)");
  if (r.schema_version < 0 || r.schema_version > k_max_schema_version)
    return invalid(r.source, fmt::format("report schema_version {} is newer than this gpudoctor reads ({}); "
                                         "it was written by gpudoctor {}: join the reports with that version or newer",
                                         r.schema_version, k_max_schema_version, util::printable(r.tool_version)));
  if (r.command != "check")
    return invalid(r.source, fmt::format("a `gpudoctor {}` report, not `gpudoctor check --json`", util::printable(r.command)));
  for (const auto& f : r.findings)
    if (f.id.empty()) return invalid(r.source, "a finding without an id");
  r.node = r.host;
  return r;
}

JsonValues split_json_values(std::string_view text, std::size_t base) {
  JsonValues out;
  std::size_t i = 0;
  std::size_t garbage_start = std::string_view::npos;
  auto flush_garbage = [&](std::size_t end) {
    if (garbage_start == std::string_view::npos) return;
    std::string_view g = text.substr(garbage_start, end - garbage_start);
    out.garbage.push_back(fmt::format("bytes {}-{} are not a JSON report: \"{}\"", base + garbage_start, base + end,
                                      util::printable(g.substr(0, 60))));
    garbage_start = std::string_view::npos;
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      ++i;
      continue;
    }
    if (c != '{') {
      if (garbage_start == std::string_view::npos) garbage_start = i;
      std::size_t nl = text.find('\n', i);
      i = nl == std::string_view::npos ? text.size() : nl + 1;
      continue;
    }
    flush_garbage(i);
    std::size_t start = i;
    std::size_t close = matching_close(text, start, true);
    i = close == std::string_view::npos ? text.size() : close + 1;
    // A value cut short (at the end, or by the next report's line) fails its own parse, alone.
    out.values.push_back(text.substr(start, text[i - 1] == '\n' ? i - 1 - start : i - start));
  }
  flush_garbage(text.size());
  return out;
}

}  // namespace gpudoctor::fleet
