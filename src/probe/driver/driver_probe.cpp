#include <probe/driver/driver_probe.hpp>

#include <probe/driver/library_probes.hpp>
#include <sys/subprocess.hpp>
#include <util/secrets.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>
#include <vector>

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

// One child asks every library at once, each on its own thread, and prints each answer as a tagged
// line the moment it has it: one process start instead of three (each start of this binary costs
// milliseconds a health check pays on every node). The isolation stays: what the shared child did
// not answer — it crashed, failed, or more than one library hung — is asked again, one child per
// library, so a crash or a hang is pinned on the library that caused it.
constexpr std::string_view k_answer_tag = "@gpudoctor-answer ";

struct Ask {
  std::string which;
  std::string library;
};

std::map<std::string, ChildAnswer> ask_together(const std::vector<Ask>& asks, std::chrono::milliseconds timeout) {
  std::map<std::string, ChildAnswer> out;
  auto self = sys::self_executable();
  if (!self) return out;
  sys::ProcessOptions o;
  o.argv = {*self, std::string(k_probe_driver_command)};
  for (const auto& a : asks) {
    o.argv.push_back(a.which);
    o.argv.push_back(a.library);
  }
  o.timeout = timeout;
  o.output_limit = 16u << 20;
  auto result = sys::run_process(o);
  if (!result) return out;
  for (auto line : util::lines(result->out)) {
    if (!line.starts_with(k_answer_tag)) continue;  // a vendor library's own chatter
    line.remove_prefix(k_answer_tag.size());
    auto sp1 = line.find(' ');
    auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos) continue;
    std::string which(line.substr(0, sp1));
    auto ask = std::find_if(asks.begin(), asks.end(), [&](const Ask& a) { return a.which == which; });
    auto json = nlohmann::json::parse(line.substr(sp2 + 1), nullptr, false);
    if (ask == asks.end() || json.is_discarded() || !json.is_object()) continue;
    ChildAnswer a;
    a.run.library = ask->library;
    a.run.timeout_ms = static_cast<int>(timeout.count());
    a.run.outcome = facts::ProbeOutcome::answered;
    a.run.wall_ms = result->wall_ms;
    std::string ms(line.substr(sp1 + 1, sp2 - sp1 - 1));
    char* end = nullptr;
    double v = std::strtod(ms.c_str(), &end);
    if (end && *end == '\0' && v >= 0) a.run.wall_ms = v;
    a.answer = std::move(json);
    out[which] = std::move(a);
  }
  // A lone library without an answer when the deadline passed is the one that hung: asking it again
  // would only double the wait.
  if (result->timed_out && out.size() + 1 == asks.size()) {
    for (const auto& a : asks) {
      if (out.count(a.which)) continue;
      ChildAnswer t;
      t.run.library = a.library;
      t.run.timeout_ms = static_cast<int>(timeout.count());
      t.run.wall_ms = result->wall_ms;
      t.run.outcome = facts::ProbeOutcome::timed_out;
      t.run.detail = fmt::format("no answer within {} ms", timeout.count());
      out[a.which] = std::move(t);
    }
  }
  return out;
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
F not_asked(const std::string& library) {
  F f;
  f.library.requested = library;
  f.run.detail = "not asked (library set to none)";
  return f;
}

}  // namespace

facts::DriverFacts probe_driver(const sys::FileSystem& fs, const DriverProbeOptions& options) {
  std::string cudart = options.cudart_library.empty() ? find_toolkit_cudart(fs) : options.cudart_library;
  std::vector<Ask> asks;
  if (options.nvml_library != "none") asks.push_back({"nvml", options.nvml_library});
  if (options.cuda_library != "none") asks.push_back({"cuda", options.cuda_library});
  if (!cudart.empty() && cudart != "none") asks.push_back({"cudart", cudart});

  std::map<std::string, ChildAnswer> answers;
  if (asks.size() > 1) answers = ask_together(asks, options.timeout);
  std::map<std::string, std::future<ChildAnswer>> again;
  for (const auto& a : asks) {
    if (answers.count(a.which)) continue;
    again[a.which] = std::async(std::launch::async, ask_in_child, a.which, a.library, options.timeout);
  }
  for (auto& [which, fut] : again) answers[which] = fut.get();

  facts::DriverFacts f;
  f.nvml = answers.count("nvml") ? from_child<facts::NvmlFacts>(std::move(answers["nvml"]), options.nvml_library)
                                 : not_asked<facts::NvmlFacts>(options.nvml_library);
  f.cuda = answers.count("cuda") ? from_child<facts::CudaFacts>(std::move(answers["cuda"]), options.cuda_library)
                                 : not_asked<facts::CudaFacts>(options.cuda_library);
  if (answers.count("cudart")) {
    f.cudart = from_child<facts::CudartFacts>(std::move(answers["cudart"]), cudart);
  } else if (cudart == "none") {
    f.cudart = not_asked<facts::CudartFacts>(cudart);
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

namespace {

std::optional<nlohmann::json> ask_one(std::string_view which, const std::string& library) {
  if (which == "nvml") return ask_nvml(library);
  if (which == "cuda") return ask_cuda(library);
  if (which == "cudart") return ask_cudart(library);
  return std::nullopt;
}

}  // namespace

int run_driver_probe_child(std::string_view which, const std::string& library, std::ostream& out) {
  auto j = ask_one(which, library);
  if (!j) return 2;
  out << '\n' << j->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out.flush();
  return 0;
}

int run_driver_probe_children(const std::vector<std::pair<std::string, std::string>>& asks, std::ostream& out) {
  for (const auto& [which, library] : asks)
    if (which != "nvml" && which != "cuda" && which != "cudart") return 2;
  std::mutex lock;
  std::vector<std::thread> threads;
  for (const auto& [which, library] : asks) {
    threads.emplace_back([&out, &lock, which = which, library = library] {
      auto start = std::chrono::steady_clock::now();
      auto j = ask_one(which, library);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard<std::mutex> hold(lock);
      // A line of its own: a vendor library may have printed without a newline.
      out << '\n' << k_answer_tag << which << ' ' << fmt::format("{:.3f}", ms) << ' '
          << j->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
      out.flush();
    });
  }
  for (auto& t : threads) t.join();
  return 0;
}

}  // namespace gpudoctor::probe
