// gpudoctor capture -o FILE.tar.gz: the files every probe reads on this machine, as a tree that
// `gpudoctor check --root FILE.tar.gz` diagnoses anywhere.
#include <CLI/CLI.hpp>

#include <iostream>

#include <cli/command.hpp>
#include <cli/gather.hpp>
#include <probe/capture.hpp>
#include <probe/driver/driver_probe.hpp>
#include <probe/probe.hpp>
#include <sys/clock.hpp>
#include <sys/recording_file_system.hpp>
#include <util/secrets.hpp>
#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

struct CaptureOptions {
  std::string output;
  bool list = false;
};

// --list: every path and variable that would go in, and the variables withheld as credentials
// (names only), before anything is written.
void print_list(const probe::Capture& capture, const sys::FileSystem& live) {
  using util::printable;
  std::cout << "Files (" << capture.entries.size() << "):\n";
  for (const auto& e : capture.entries) {
    switch (e.kind) {
      case sys::ArchiveEntry::Kind::directory: std::cout << "  /" << printable(e.path) << "/\n"; break;
      case sys::ArchiveEntry::Kind::symlink:
        std::cout << "  /" << printable(e.path) << " -> " << printable(e.content) << '\n';
        break;
      case sys::ArchiveEntry::Kind::file:
        std::cout << "  /" << printable(e.path) << " ("
                  << (e.pieces.empty() ? std::to_string(e.content.size()) + " bytes"
                                       : "parts of " + std::to_string(e.sparse_size) + " bytes")
                  << ")\n";
        break;
    }
  }
  std::size_t other = 0;
  std::vector<std::string> kept, withheld;
  if (auto env = live.read_text("/proc/self/environ", 4 << 20)) {
    for (auto entry : util::split(*env, '\0')) {
      auto eq = entry.find('=');
      if (eq == std::string_view::npos || eq == 0) continue;
      auto name = entry.substr(0, eq), value = entry.substr(eq + 1);
      if (probe::env_entry_kept(name, value)) {
        kept.push_back(printable(entry));
      } else if (util::name_looks_secret(name) || util::value_looks_secret(value)) {
        withheld.push_back(printable(name));
      } else {
        ++other;
      }
    }
  }
  std::cout << "Environment variables kept (" << kept.size() << "):\n";
  for (const auto& k : kept) std::cout << "  " << k << '\n';
  std::cout << "Withheld, their names or values look like credentials (" << withheld.size() << "):\n";
  for (const auto& w : withheld) std::cout << "  " << w << '\n';
  std::cout << other << " other variables are left out: they do not decide GPU behaviour.\n";
  for (const auto& sk : capture.skipped) std::cout << "Not copied: " << printable(sk) << '\n';
}

int run_capture(const CaptureOptions& o) {
  if (o.output.empty() && !o.list) {
    std::cerr << "gpudoctor capture: name the archive to write with -o FILE.tar.gz, or see what would go in with --list\n";
    return k_exit_usage;
  }
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
  probe::CaptureScope scope;
  if (f.environment.identity.uid.known()) scope.uid = *f.environment.identity.uid;
  for (const auto& [name, gid] : f.environment.identity.group_ids) scope.gids.insert(gid);
  auto capture = probe::build_capture(*live, recorder.accesses(), extra, recorder.ranges(), scope);
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
  if (o.list) {
    print_list(capture, *live);
    return k_exit_ok;
  }
  auto written = sys::write_tar_gz(o.output, capture.entries);
  if (!written) {
    std::cerr << "gpudoctor capture: " << util::printable(written.error().message) << '\n';
    return k_exit_usage;
  }
  std::cerr << "gpudoctor capture: wrote " << capture.entries.size() << " entries to " << o.output << '\n';
  for (const auto& p : capture.partial) {
    std::uint64_t kept = 0;
    for (const auto& r : p.ranges) kept += r.length;
    std::cerr << "  partly " << util::printable(p.path) << ": the " << kept << " bytes the probes read, of " << p.size << '\n';
  }
  for (const auto& s : capture.skipped) std::cerr << "  skipped " << util::printable(s) << '\n';
  std::cerr << "Replay it anywhere with: gpudoctor check --root " << o.output << '\n';
  return k_exit_ok;
}

}  // namespace

CommandRunner setup_capture(CLI::App& sub) {
  auto o = std::make_shared<CaptureOptions>();
  sub.add_option("-o,--output", o->output, "The archive to write (.tar.gz)");
  sub.add_flag("--list", o->list, "Print every path and environment variable that would go in, and write nothing");
  return [o] { return run_capture(*o); };
}

}  // namespace gpudoctor::cli
