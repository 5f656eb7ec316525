#include <watch/nvml_gpu_source.hpp>

#include <unistd.h>

#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sys/coprocess.hpp>
#include <util/text.hpp>
#include <watch/nvml_protocol.hpp>
#include <watch/proc_parse.hpp>

namespace gpudoctor::watch {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view k_sample_command = "__sample-nvml";
// proc_namespaces(7): the inode of the initial pid namespace (PROC_PID_INIT_INO in the kernel).
constexpr std::string_view k_initial_pid_namespace = "pid:[4026531836]";

std::string elapsed(Clock::time_point since) {
  return fmt::format("{:.1f} s", std::chrono::duration<double>(Clock::now() - since).count());
}

class NvmlGpuSource final : public GpuSource {
 public:
  NvmlGpuSource(const sys::FileSystem& fs, const std::string& self, NvmlSourceOptions options)
      : m_fs(fs), m_options(std::move(options)), m_started(Clock::now()) {
    auto ns = m_fs.read_link("/proc/self/ns/pid");
    if (ns && *ns != k_initial_pid_namespace) {
      m_pid_namespace_note = fmt::format(
          "gpudoctor runs in a child pid namespace ({}, a container): NVML reports the host's pids, which cannot "
          "be matched to the run's processes, so per-process GPU figures are unknown",
          *ns);
    }
    auto helper = sys::Coprocess::start({self, std::string(k_sample_command), m_options.library});
    if (!helper) {
      stop_with(fmt::format("NVML sampling could not start: {}", helper.error().message));
      return;
    }
    m_helper.emplace(std::move(*helper));
    m_state = State::starting;
    m_description = fmt::format("NVML ({}) was still initialising when sampling ended", m_options.library);
  }

  ~NvmlGpuSource() override {
    if (m_helper) m_helper->stop();
  }

  GpuReading read(std::span<const int> /*pids*/) override {
    if (m_state == State::starting) {
      auto r = next_object();
      if (m_state == State::stopped) return {};
      if (r.status == sys::LineStatus::timeout) {
        if (Clock::now() - m_started > m_options.init_timeout) {
          stop_with(fmt::format("NVML ({}) did not finish initialising within {} ms; no GPU figures were sampled",
                                m_options.library, m_options.init_timeout.count()));
          return {};
        }
        GpuReading early;
        early.processes_unknown = early.process_sm_unknown = "NVML was still initialising";
        return early;
      }
      if (r.status == sys::LineStatus::closed) {
        stop_with(fmt::format("the NVML sampling helper ended ({}) before answering", m_helper->stop()));
        return {};
      }
      if (!accept_hello(r.object)) return {};
    }
    if (m_state == State::ready) {
      if (!m_helper->send("sample")) {
        stop_with(fmt::format("the NVML sampling helper ended ({}) after {}", m_helper->stop(), elapsed(m_started)));
        return {};
      }
      m_state = State::waiting;
      m_asked = Clock::now();
    }
    if (m_state != State::waiting) return {};
    auto r = next_object();
    if (m_state == State::stopped) return {};
    if (r.status == sys::LineStatus::timeout) {
      if (Clock::now() - m_asked > m_options.hang_timeout) {
        stop_with(fmt::format("NVML stopped answering after {} (no reading within {} ms); later samples have no GPU "
                              "figures",
                              elapsed(m_started), m_options.hang_timeout.count()));
        return {};
      }
      // NVML is slow this once: this sample has no GPU figures, and says why.
      GpuReading late;
      late.processes_unknown = late.process_sm_unknown =
          fmt::format("NVML's reading did not arrive within {} ms for this sample", m_options.answer_wait.count());
      return late;
    }
    if (r.status == sys::LineStatus::closed) {
      stop_with(fmt::format("the NVML sampling helper ended ({}) after {}; later samples have no GPU figures",
                            m_helper->stop(), elapsed(m_started)));
      return {};
    }
    m_state = State::ready;
    return parse_reading(r.object);
  }

  std::string description() const override { return m_description; }

  double helper_cpu_seconds() const override {
    if (!m_helper || !m_helper->running()) return m_helper_cpu;
    auto text = m_fs.read_text("/proc/" + std::to_string(m_helper->pid()) + "/stat", 4096);
    if (!text) return m_helper_cpu;
    auto st = parse_stat(*text);
    if (!st) return m_helper_cpu;
    m_helper_cpu = static_cast<double>(st->utime + st->stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
    return m_helper_cpu;
  }

 private:
  enum class State { starting, ready, waiting, stopped };

  struct Answer {
    sys::LineStatus status;
    nlohmann::json object;
  };

  // The next JSON object from the helper within answer_wait. Other lines are skipped: a vendor
  // library may print to stdout (the driver probe takes the last line for the same reason). A
  // helper that prints k_max_skipped such lines in a row is given up.
  Answer next_object() {
    constexpr int k_max_skipped = 64;
    const auto deadline = Clock::now() + m_options.answer_wait;
    while (true) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      auto r = m_helper->receive(std::max(left, std::chrono::milliseconds(0)));
      if (r.status != sys::LineStatus::line) return {r.status, {}};
      auto j = nlohmann::json::parse(r.line, nullptr, false);
      if (!j.is_discarded() && j.is_object()) {
        m_skipped_count = 0;  // the bound is on lines in a row without an answer, not over the run
        return {sys::LineStatus::line, std::move(j)};
      }
      if (m_skipped.empty()) m_skipped = util::sanitize_utf8(r.line.substr(0, 200));
      if (++m_skipped_count >= k_max_skipped) {
        stop_with("the NVML sampling helper printed no answer, only lines like: " + m_skipped);
        return {sys::LineStatus::closed, {}};
      }
    }
  }

  void stop_with(std::string why) {
    helper_cpu_seconds();  // its last figure, before it is gone
    if (m_helper) m_helper->stop();
    m_state = State::stopped;
    m_description = std::move(why);
  }

  bool accept_hello(const nlohmann::json& j) {
    const auto ready = j.find("ready");
    if (ready == j.end() || !ready->is_boolean()) {
      stop_with("the NVML sampling helper answered without saying whether NVML is ready: " +
                util::sanitize_utf8(j.dump().substr(0, 200)));
      return false;
    }
    auto text = [&](const char* key) {
      auto it = j.find(key);
      return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (!ready->get<bool>()) {
      std::string why = text("error");
      stop_with("NVML is not available: " + (why.empty() ? std::string("no reason given") : why));
      return false;
    }
    std::string version = text("driver_version");
    m_description = version.empty() ? std::string("NVML") : "NVML " + version;
    if (!m_pid_namespace_note.empty()) m_description += "; " + m_pid_namespace_note;
    m_state = State::ready;
    return true;
  }

  GpuReading parse_reading(const nlohmann::json& j) {
    auto r = parse_nvml_reading(j, m_pid_namespace_note);
    if (auto* why = std::get_if<std::string>(&r)) {
      stop_with("the NVML sampling helper answered an unreadable reading: " + util::sanitize_utf8(*why));
      return {};
    }
    return std::get<GpuReading>(std::move(r));
  }

  const sys::FileSystem& m_fs;
  NvmlSourceOptions m_options;
  Clock::time_point m_started;
  Clock::time_point m_asked;
  std::optional<sys::Coprocess> m_helper;
  State m_state = State::stopped;
  std::string m_description;
  std::string m_pid_namespace_note;
  std::string m_skipped;  // the first line that was not an answer
  int m_skipped_count = 0;
  mutable double m_helper_cpu = 0;
};

}  // namespace

std::unique_ptr<GpuSource> make_nvml_gpu_source(const sys::FileSystem& fs, const std::string& self_executable,
                                                NvmlSourceOptions options) {
  if (options.library == "none") {
    return make_unavailable_gpu_source("NVML sampling is off (GPUDOCTOR_NVML_LIBRARY=none); GPU use is judged from "
                                       "/proc (libraries mapped, device nodes held)");
  }
  return std::make_unique<NvmlGpuSource>(fs, self_executable, std::move(options));
}

}  // namespace gpudoctor::watch
