#include <watch/output_log.hpp>

namespace gpudoctor::watch {

// The log-signature matcher (watch/log_scanner.hpp) plugs in here: one LogScanner per stream whose
// on_match callback appends an Event stamped m_now. Until its implementation is in the build,
// output is relayed without being matched and no log.* findings are reported.
struct OutputLog::Scanners {};

OutputLog::OutputLog() : m_scanners(std::make_unique<Scanners>()) {}
OutputLog::~OutputLog() = default;

void OutputLog::feed(LogStream /*stream*/, std::string_view /*bytes*/, double t) { m_now = t; }

void OutputLog::finish(double t) { m_now = t; }

std::vector<facts::Finding> OutputLog::findings() const { return {}; }

}  // namespace gpudoctor::watch
