// gpudoctor capture -o FILE.tar.gz: the files every probe reads on this machine, as a tree that
// `gpudoctor check --root FILE.tar.gz` diagnoses anywhere.
#include <CLI/CLI.hpp>

#include <iostream>

#include <cli/command.hpp>
#include <cli/gather.hpp>
#include <probe/capture.hpp>
#include <probe/driver/driver_probe.hpp>
#include <sys/clock.hpp>
#include <sys/recording_file_system.hpp>

namespace gpudoctor::cli {
namespace {

struct CaptureOptions {
  std::string output;
};

int run_capture(const CaptureOptions& o) {
  auto live = sys::make_rooted_file_system("/");
  sys::RecordingFileSystem recorder(*live);
  facts::Facts f = gather_facts(recorder, GatherOptions{});
  nlohmann::json meta = {{"tool", "gpudoctor"},
                         {"tool_version", GPUDOCTOR_VERSION},
                         {"time", sys::now_utc_iso8601()},
                         {"host", f.meta.hostname.value_or("unknown")}};
  std::map<std::string, std::string> extra = {
      {"/.gpudoctor/capture.json", meta.dump(2) + "\n"},
      {std::string(probe::k_recorded_driver_path),
       nlohmann::json(f.driver).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"}};
  // Interpreters are not re-run under --root: their sys.path and the working directory travel here.
  extra[std::string(probe::k_python_capture_path)] = probe::python_capture_document(f.framework);
  auto capture = probe::build_capture(*live, recorder.accesses(), extra, recorder.ranges());
  // Which files hold only the bytes that were read: a later reader asking for others gets zeros.
  if (!capture.partial.empty()) {
    nlohmann::json partial = nlohmann::json::array();
    for (const auto& p : capture.partial) {
      nlohmann::json ranges = nlohmann::json::array();
      for (const auto& r : p.ranges) ranges.push_back({r.offset, r.length});
      partial.push_back({{"path", p.path}, {"size", p.size}, {"ranges", std::move(ranges)}});
    }
    meta["partial_files"] = std::move(partial);
    for (auto& e : capture.entries) {
      if (e.path == ".gpudoctor/capture.json") e.content = meta.dump(2) + "\n";
    }
  }
  auto written = sys::write_tar_gz(o.output, capture.entries);
  if (!written) {
    std::cerr << "gpudoctor capture: " << written.error().message << '\n';
    return k_exit_usage;
  }
  std::cerr << "gpudoctor capture: wrote " << capture.entries.size() << " entries to " << o.output << '\n';
  for (const auto& p : capture.partial) {
    std::uint64_t kept = 0;
    for (const auto& r : p.ranges) kept += r.length;
    std::cerr << "  partly " << p.path << ": the " << kept << " bytes the probes read, of " << p.size << '\n';
  }
  for (const auto& s : capture.skipped) std::cerr << "  skipped " << s << '\n';
  std::cerr << "Replay it anywhere with: gpudoctor check --root " << o.output << '\n';
  return k_exit_ok;
}

}  // namespace

CommandRunner setup_capture(CLI::App& sub) {
  auto o = std::make_shared<CaptureOptions>();
  sub.add_option("-o,--output", o->output, "The archive to write (.tar.gz)")->required();
  return [o] { return run_capture(*o); };
}

}  // namespace gpudoctor::cli
