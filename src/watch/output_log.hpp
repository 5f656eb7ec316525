// OutputLog: the child's output as it streams, matched against the log signatures (one
// LogScanner per stream: a line may be split across reads, never across streams) and turned into
// timeline events (when each message appeared) and log.* findings at the end.
//
// Thread-safety: none; fed from the relay loop only.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include <facts/finding.hpp>
#include <watch/timeline.hpp>

namespace gpudoctor::watch {

enum class LogStream { out, err };

class OutputLog {
 public:
  OutputLog();
  ~OutputLog();
  OutputLog(const OutputLog&) = delete;
  OutputLog& operator=(const OutputLog&) = delete;

  // Bytes of `stream` that arrived `t` seconds into the run.
  void feed(LogStream stream, std::string_view bytes, double t);
  // Matches a last line without a newline; `t` stamps what it finds.
  void finish(double t);

  // Every matched message, in order of appearance (kind log, the line as text).
  const std::vector<Event>& events() const { return m_events; }
  // log.* findings, root cause first.
  std::vector<facts::Finding> findings() const;

 private:
  struct Scanners;
  std::vector<Event> m_events;
  double m_now = 0;
  std::unique_ptr<Scanners> m_scanners;
};

}  // namespace gpudoctor::watch
