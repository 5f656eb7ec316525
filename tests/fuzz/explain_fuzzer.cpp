// libFuzzer target for `explain`: the bytes as a pasted post or log go through the log signatures
// (LogScanner) and every report reader (ReportReader, fed whole blocks and the matched messages),
// and the described machine through every check, then the reading of a post that states only its
// symptom (explain_likely). Nothing may crash, hang, or grow without bound.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <checks/check.hpp>
#include <cli/explain_likely.hpp>
#include <probe/text/report_reader.hpp>
#include <watch/log_scanner.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpudoctor::probe::text::ReportReader reader;
  gpudoctor::watch::LogScanner scanner;
  scanner.set_on_match([&reader](const gpudoctor::watch::LogMatch& m) {
    reader.feed_message(m.signature->id, m.captures, static_cast<std::size_t>(m.line_number));
  });
  // Two chunks, split inside the text, as a pipe delivers it.
  scanner.feed(text.substr(0, size / 2));
  scanner.feed(text.substr(size / 2));
  scanner.finish();
  reader.feed_lines(text, 1);
  auto facts = reader.facts();
  gpudoctor::checks::run_checks(facts);
  gpudoctor::cli::likely_cause(text.substr(0, gpudoctor::cli::k_likely_head_bytes), facts);
  return 0;
}
