// gpudoctor explain [FILE|-] [--json|--markdown] [--color WHEN]
// Reads a log or a pasted traceback (stdin when FILE is - or absent) in chunks, so a 1 GB log
// costs a 1 MiB buffer, and reports what each known message means: findings with log.* ids, most
// likely root cause first.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include <cli/command.hpp>
#include <cli/output.hpp>
#include <sys/clock.hpp>
#include <watch/log_scanner.hpp>

namespace gpudoctor::cli {
namespace {

constexpr std::size_t k_chunk_bytes = 1 << 20;

struct ExplainOptions {
  std::string file = "-";
  bool json = false;
  bool markdown = false;
  std::string color = "auto";
};

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f != nullptr && f != stdin) std::fclose(f);
  }
};

// The host explain ran on (the log itself may come from anywhere).
std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof(buf) - 1) != 0) return "unknown";
  return buf;
}

int run_explain(const ExplainOptions& o) {
  const bool from_stdin = o.file == "-";
  const std::string shown = from_stdin ? std::string("standard input") : o.file;
  std::unique_ptr<std::FILE, FileCloser> in(from_stdin ? stdin : std::fopen(o.file.c_str(), "rb"));
  if (!in) {
    std::cerr << fmt::format("gpudoctor explain: cannot open {}: {}\n", o.file, std::strerror(errno));
    return k_exit_usage;
  }
  watch::LogScanner scanner;
  std::vector<char> buf(k_chunk_bytes);
  for (;;) {
    std::size_t n = std::fread(buf.data(), 1, buf.size(), in.get());
    if (n > 0) scanner.feed(std::string_view(buf.data(), n));
    if (n < buf.size()) break;
  }
  if (std::ferror(in.get())) {
    std::cerr << fmt::format("gpudoctor explain: cannot read {}: {}\n", shown, std::strerror(errno));
    return k_exit_usage;
  }
  scanner.finish();

  render::Report report;
  report.command = "explain";
  report.host = host_name();
  report.time = sys::now_utc_iso8601();
  report.findings = scanner.findings();
  report.notes.push_back(fmt::format("read {} line(s), {} byte(s) from {}; {} line(s) matched a known message",
                                     scanner.lines_seen(), scanner.bytes_seen(), shown, scanner.match_count()));
  Format format = o.json ? Format::json : o.markdown ? Format::markdown : Format::text;
  make_renderer(format, color_mode(o.color))->render(report, std::cout);
  std::cout.flush();
  return exit_status(report);
}

}  // namespace

CommandRunner setup_explain(CLI::App& sub) {
  auto o = std::make_shared<ExplainOptions>();
  sub.add_option("file", o->file, "The log or traceback to explain; - (the default) reads standard input");
  auto* json = sub.add_flag("--json", o->json, "Print one JSON object with a findings array, root cause first");
  sub.add_flag("--markdown", o->markdown, "Print Markdown, for bug reports")->excludes(json);
  sub.add_option("--color", o->color, "Colour: auto, always, never")->check(CLI::IsMember({"auto", "always", "never"}));
  return [o] { return run_explain(*o); };
}

}  // namespace gpudoctor::cli
