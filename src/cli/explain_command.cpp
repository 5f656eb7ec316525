// gpudoctor explain [FILE|-] [--json|--markdown] [--color WHEN]
// Reads a log, a pasted traceback or a whole issue body (stdin when FILE is - or absent) in chunks,
// so a 1 GB log costs a 1 MiB buffer. Two readers share each line: the log signatures (what each
// known message means: log.* findings) and the report readers (probe/text: the tool dumps in the
// text, read into facts). The described machine then goes through the same checks as `check`, and
// its findings, which name causes, come before the messages they explain. Text in which nothing
// was recognised is said to be so, with exit status 3, never "nothing wrong".
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include <cli/command.hpp>
#include <cli/explain_fallback.hpp>
#include <cli/explain_likely.hpp>
#include <checks/check.hpp>
#include <cli/output.hpp>
#include <probe/text/report_reader.hpp>
#include <sys/clock.hpp>
#include <util/text.hpp>
#include <watch/log_scanner.hpp>

namespace gpudoctor::cli {
namespace {

constexpr std::size_t k_chunk_bytes = 1 << 20;
constexpr std::size_t k_max_reader_line = 16 * 1024;

// Feeds the report reader whole lines out of the chunks: the complete lines of a chunk in one
// block, a line split across chunks from a bounded carry. A line past k_max_reader_line is skipped
// (no tool dump has one), so memory stays bounded whatever the input.
class LineSplitter {
 public:
  explicit LineSplitter(probe::text::ReportReader& reader) : m_reader(reader) {}
  void feed(std::string_view chunk) {
    if (!m_carry.empty() || m_overlong) {
      auto nl = chunk.find('\n');
      append_carry(chunk.substr(0, nl));
      if (nl == std::string_view::npos) return;
      flush_carry();
      chunk.remove_prefix(nl + 1);
    }
    auto last_nl = chunk.rfind('\n');
    if (last_nl != std::string_view::npos) {
      auto body = chunk.substr(0, last_nl + 1);
      std::size_t start = 0;
      // Blocks of at most 4 MiB of whole lines; a longer line is cut to the bound and skipped.
      while (start < body.size()) {
        auto nl = body.find('\n', start);
        if (nl - start > k_max_reader_line) {
          ++m_number;
          start = nl + 1;
          continue;
        }
        auto end = body.rfind('\n', std::min(body.size() - 1, start + (4u << 20)));
        if (end < start) end = nl;
        // Lines longer than the bound inside a block are skipped by feed_line itself.
        m_number += m_reader.feed_lines(body.substr(start, end + 1 - start), m_number + 1);
        start = end + 1;
      }
      chunk.remove_prefix(last_nl + 1);
    }
    append_carry(chunk);
  }
  void finish() {
    if (!m_carry.empty() || m_overlong) flush_carry();
  }

 private:
  void append_carry(std::string_view part) {
    if (m_overlong) return;
    if (m_carry.size() + part.size() > k_max_reader_line) {
      m_overlong = true;
      m_carry.clear();
    } else {
      m_carry.append(part);
    }
  }
  void flush_carry() {
    ++m_number;
    if (!m_overlong) m_reader.feed_line(m_carry, m_number);
    m_carry.clear();
    m_overlong = false;
  }
  probe::text::ReportReader& m_reader;
  std::string m_carry;
  bool m_overlong = false;
  std::size_t m_number = 0;
};

// The checks' findings on the described machine, root cause first, then the log findings, then the
// checks' advice. A check that could not decide for want of facts says nothing here: the text never
// claimed to show them (probe.*, python.sys_path_unknown and deep.* are about a machine that hid
// its files or was not asked).
std::vector<facts::Finding> join_findings(std::vector<facts::Finding> described, const std::vector<facts::Finding>& logs) {
  std::vector<facts::Finding> out, advice;
  for (auto& f : described) {
    if (f.id.starts_with("probe.") || f.id == "python.sys_path_unknown" || f.id.starts_with("deep.")) continue;
    // Advice about the machine (what its GPU accelerates) is no cause of what the text reports:
    // after the messages.
    (f.severity == facts::Severity::info ? advice : out).push_back(std::move(f));
  }
  for (const auto& f : logs) out.push_back(f);
  for (auto& f : advice) out.push_back(std::move(f));
  return out;
}

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
  probe::text::ReportReader reader;
  LineSplitter lines(reader);
  scanner.set_on_match([&reader](const watch::LogMatch& m) {
    reader.feed_message(m.signature->id, m.captures, static_cast<std::size_t>(m.line_number));
  });
  std::vector<char> buf(k_chunk_bytes);
  std::string head;  // the text's beginning, for a post that states only its symptom
  for (;;) {
    std::size_t n = std::fread(buf.data(), 1, buf.size(), in.get());
    if (n > 0) {
      scanner.feed(std::string_view(buf.data(), n));
      lines.feed(std::string_view(buf.data(), n));
      if (head.size() < k_likely_head_bytes) head.append(buf.data(), std::min(n, k_likely_head_bytes - head.size()));
    }
    if (n < buf.size()) break;
  }
  if (std::ferror(in.get())) {
    std::cerr << fmt::format("gpudoctor explain: cannot read {}: {}\n", shown, std::strerror(errno));
    return k_exit_usage;
  }
  scanner.finish();
  lines.finish();

  render::Report report;
  report.command = "explain";
  report.host = host_name();
  report.time = sys::now_utc_iso8601();
  std::vector<facts::Finding> described;
  if (reader.any()) described = checks::run_checks(reader.facts());
  report.findings = join_findings(std::move(described), scanner.findings());
  report.notes.push_back(fmt::format("read {} line(s), {} byte(s) from {}; {} line(s) matched a known message",
                                     scanner.lines_seen(), scanner.bytes_seen(), shown, scanner.match_count()));
  for (const auto& r : reader.readings()) report.notes.push_back(fmt::format("line {}: {}", r.line, r.what));
  // A post that states only its symptom: the cause most often behind it, said as a guess with what
  // it rests on (explain_likely.hpp); then (below) what was read and what to paste next.
  std::optional<facts::Finding> likely;
  // Advice about the machine the text shows (what its GPU accelerates) names no cause of what the
  // text reports: the likely cause comes before it.
  const bool only_advice = std::all_of(report.findings.begin(), report.findings.end(),
                                       [](const facts::Finding& f) { return f.severity == facts::Severity::info; });
  if (only_advice) {
    likely = likely_cause(head, reader.facts());
  } else if (report.findings.front().id == "log.docker_no_gpu_runtime" ||
             report.findings.front().id == "log.driver_too_old") {
    // No NVIDIA runtime in Docker, or no NVIDIA GPU to give it at all. CUDA's "driver version is
    // insufficient" is also what a machine with no NVIDIA driver at all (an Intel-only laptop) gets.
    if (auto vendor = vendor_cause(head, reader.facts())) {
      report.findings.front().explained_by.push_back(vendor->id);
      report.findings.insert(report.findings.begin(), std::move(*vendor));
    } else if (report.findings.front().id == "log.driver_too_old") {
      if (auto updated = updated_without_reboot_cause(head)) {
        report.findings.front().explained_by.push_back(updated->id);
        report.findings.insert(report.findings.begin(), std::move(*updated));
      } else if (auto unreached = driver_not_reached(head, reader.facts())) {
        report.findings.front().explained_by.push_back(unreached->id);
        report.findings.insert(report.findings.begin(), std::move(*unreached));
      }
    }
  } else if (restates_symptom(report.findings.front().id)) {
    // The message is the symptom, said by the program: the common cause of it comes first, as a guess.
    if (auto guess = likely_cause(head, reader.facts())) {
      report.findings.front().explained_by.push_back(guess->id);
      report.findings.insert(report.findings.begin(), std::move(*guess));
    }
  } else if (situation_explains(report.findings.front().id)) {
    // The message is the symptom; the situation the text describes is its cause.
    if (auto situation = situation_cause(head, reader.facts())) {
      report.findings.front().explained_by.push_back(situation->id);
      report.findings.insert(report.findings.begin(), std::move(*situation));
    }
  }
  const bool recognised = scanner.match_count() > 0 || reader.any() || likely.has_value();
  if (!recognised) report.outcome = render::Report::Outcome::unrecognised;
  // Never silence: a text that named no cause says so, with what was read and what to paste next.
  if (!report.findings.empty() && likely) {
    report.findings.insert(report.findings.begin(), std::move(*likely));
  } else if (report.findings.empty()) {
    if (likely) report.findings.push_back(std::move(*likely));
    report.findings.push_back(
        explain_fallback(reader, scanner.lines_seen(), scanner.bytes_seen(), scanner.match_count()));
  }
  Format format = o.json ? Format::json : o.markdown ? Format::markdown : Format::text;
  make_renderer(format, color_mode(o.color))->render(report, std::cout);
  std::cout.flush();
  return recognised ? exit_status(report) : k_exit_unrecognised;
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
