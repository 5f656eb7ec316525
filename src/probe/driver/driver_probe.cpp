#include <probe/driver/driver_probe.hpp>

#include <probe/driver/library_probes.hpp>
#include <sys/subprocess.hpp>
#include <util/secrets.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <future>
#include <ostream>

namespace gpudoctor::probe {
namespace {

// Where CUDA toolkits install libcudart (the .run installer and the distribution packages).
constexpr std::string_view k_toolkit_lib_dirs[] = {"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
                                                   "/usr/local/cuda/targets/sbsa-linux/lib"};

std::string find_toolkit_cudart(const sys::FileSystem& fs) {
  for (auto dir : k_toolkit_lib_dirs) {
    auto entries = fs.list_dir(dir);
    if (!entries) continue;
    std::string best;
    std::uint64_t best_major = 0;
    for (const auto& e : *entries) {
      constexpr std::string_view k_prefix = "libcudart.so.";
      if (!e.name.starts_with(k_prefix)) continue;
      auto major = util::parse_uint(util::split(std::string_view(e.name).substr(k_prefix.size()), '.').front());
      if (major && *major > best_major) {
        best_major = *major;
        best = std::string(dir) + "/" + e.name;
      }
    }
    if (!best.empty()) return best;
  }
  return {};
}

struct ChildAnswer {
  facts::ProbeRun run;
  nlohmann::json answer;  // null unless run.outcome == answered
};

std::string tail(std::string_view s, std::size_t n) {
  s = util::trim(s);
  return util::sanitize_utf8(s.size() > n ? s.substr(s.size() - n) : s);
}

ChildAnswer ask_in_child(std::string_view which, const std::string& library, std::chrono::milliseconds timeout) {
  ChildAnswer a;
  a.run.library = library;
  a.run.timeout_ms = static_cast<int>(timeout.count());
  auto self = sys::self_executable();
  if (!self) {
    a.run.outcome = facts::ProbeOutcome::failed;
    a.run.detail = self.error().message;
    return a;
  }
  sys::ProcessOptions o;
  o.argv = {*self, std::string(k_probe_driver_command), std::string(which), library};
  o.timeout = timeout;
  o.output_limit = 4u << 20;
  auto result = sys::run_process(o);
  if (!result) {
    a.run.outcome = facts::ProbeOutcome::failed;
    a.run.detail = result.error().message;
    return a;
  }
  a.run.wall_ms = result->wall_ms;
  if (result->timed_out) {
    a.run.outcome = facts::ProbeOutcome::timed_out;
    a.run.detail = fmt::format("no answer within {} ms", timeout.count());
  } else if (result->term_signal != 0) {
    a.run.outcome = facts::ProbeOutcome::crashed;
    a.run.detail = sys::signal_name(result->term_signal);
    if (auto err = tail(result->err, 400); !err.empty()) a.run.detail += ": " + err;
  } else {
    // The answer is the last line: a vendor library may print to stdout before it.
    std::string_view out = util::trim(result->out);
    if (auto nl = out.rfind('\n'); nl != std::string_view::npos) out = out.substr(nl + 1);
    auto json = nlohmann::json::parse(out, nullptr, false);
    if (result->exit_code != 0 || json.is_discarded() || !json.is_object()) {
      a.run.outcome = facts::ProbeOutcome::failed;
      a.run.detail = fmt::format("exit status {}: {}", result->exit_code, tail(result->err, 400));
    } else {
      a.run.outcome = facts::ProbeOutcome::answered;
      a.answer = std::move(json);
    }
  }
  return a;
}

template <typename F>
F from_child(ChildAnswer a, const std::string& library) {
  F f;
  if (a.run.outcome == facts::ProbeOutcome::answered) {
    try {
      f = a.answer.get<F>();
    } catch (const nlohmann::json::exception& e) {
      a.run.outcome = facts::ProbeOutcome::failed;
      a.run.detail = std::string("unreadable answer: ") + e.what();
    }
  }
  f.library.requested = library;
  f.run = std::move(a.run);
  return f;
}

facts::Known<std::string> read_cmdline(const sys::FileSystem& fs, std::uint32_t pid) {
  auto text = fs.read_text(fmt::format("/proc/{}/cmdline", pid), 8192);
  if (!text) return facts::Known<std::string>::unknown(text.error().message);
  // Another user's command line may hold a credential ("--api-key X"): its value never goes into
  // the facts, which `check --json` prints and `fleet` collects.
  std::string cmd = util::redact_argv(*text);
  while (!cmd.empty() && cmd.back() == '\0') cmd.pop_back();
  for (char& c : cmd) c = c == '\0' ? ' ' : c;
  if (cmd.empty()) return facts::Known<std::string>::unknown(fmt::format("/proc/{}/cmdline is empty", pid));
  return util::sanitize_utf8(cmd);
}

template <typename F>
std::future<F> start(std::string_view which, const std::string& library, std::chrono::milliseconds timeout) {
  return std::async(std::launch::async, [which, library, timeout] {
    if (library == "none") {
      F f;
      f.library.requested = library;
      f.run.detail = "not asked (library set to none)";
      return f;
    }
    return from_child<F>(ask_in_child(which, library, timeout), library);
  });
}

}  // namespace

facts::DriverFacts probe_driver(const sys::FileSystem& fs, const DriverProbeOptions& options) {
  std::string cudart = options.cudart_library.empty() ? find_toolkit_cudart(fs) : options.cudart_library;
  auto nvml = start<facts::NvmlFacts>("nvml", options.nvml_library, options.timeout);
  auto cuda = start<facts::CudaFacts>("cuda", options.cuda_library, options.timeout);
  std::future<facts::CudartFacts> runtime;
  if (!cudart.empty()) runtime = start<facts::CudartFacts>("cudart", cudart, options.timeout);

  facts::DriverFacts f;
  f.nvml = nvml.get();
  f.cuda = cuda.get();
  if (runtime.valid()) {
    f.cudart = runtime.get();
  } else {
    f.cudart.run.detail = "no libcudart.so.N under /usr/local/cuda; GPUDOCTOR_CUDART_LIBRARY names one";
  }
  for (auto& d : f.nvml.devices) {
    if (!d.processes) continue;
    for (auto& p : d.processes.value()) p.command = read_cmdline(fs, p.pid);
  }
  return f;
}

facts::DriverFacts read_recorded_driver(const sys::FileSystem& fs) {
  facts::DriverFacts f;
  auto text = fs.read_text(k_recorded_driver_path, 16u << 20);
  std::string why;
  if (text) {
    auto json = nlohmann::json::parse(*text, nullptr, false);
    if (!json.is_discarded() && json.is_object()) {
      try {
        return json.get<facts::DriverFacts>();
      } catch (const nlohmann::json::exception& e) {
        why = fmt::format("{} is unreadable: {}", k_recorded_driver_path, e.what());
      }
    } else {
      why = fmt::format("{} is not a JSON object", k_recorded_driver_path);
    }
  } else {
    why = fmt::format("the capture has no driver answers ({})", text.error().message);
  }
  f.nvml.run.detail = f.cuda.run.detail = f.cudart.run.detail = why;
  return f;
}

int run_driver_probe_child(std::string_view which, const std::string& library, std::ostream& out) {
  nlohmann::json j;
  if (which == "nvml") {
    j = ask_nvml(library);
  } else if (which == "cuda") {
    j = ask_cuda(library);
  } else if (which == "cudart") {
    j = ask_cudart(library);
  } else {
    return 2;
  }
  out << '\n' << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out.flush();
  return 0;
}

}  // namespace gpudoctor::probe
