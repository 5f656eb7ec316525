#include <watch/output_log.hpp>

#include <util/text.hpp>
#include <watch/log_scanner.hpp>

namespace gpudoctor::watch {

// One scanner per stream: stdout and stderr interleave at arbitrary points, so a line is only
// whole within its own stream.
struct OutputLog::Scanners {
  LogScanner out;
  LogScanner err;
};

OutputLog::OutputLog() : m_scanners(std::make_unique<Scanners>()) {
  auto record = [this](const LogMatch& m) {
    m_events.push_back({m_now, EventKind::log, m.signature->id, m.signature->severity, util::sanitize_utf8(m.line)});
  };
  m_scanners->out.set_on_match(record);
  m_scanners->err.set_on_match(record);
}

OutputLog::~OutputLog() = default;

void OutputLog::feed(LogStream stream, std::string_view bytes, double t) {
  m_now = t;
  (stream == LogStream::out ? m_scanners->out : m_scanners->err).feed(bytes);
}

void OutputLog::finish(double t) {
  m_now = t;
  m_scanners->out.finish();
  m_scanners->err.finish();
}

std::vector<facts::Finding> OutputLog::findings() const {
  std::vector<facts::Finding> all = m_scanners->err.findings();
  for (auto& f : m_scanners->out.findings()) {
    bool dup = false;
    for (const auto& g : all) dup |= g.id == f.id;
    if (!dup) all.push_back(std::move(f));
  }
  return all;
}

}  // namespace gpudoctor::watch
