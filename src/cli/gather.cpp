#include <cli/gather.hpp>

#include <probe/probe.hpp>

namespace gpudoctor::cli {

facts::Facts gather_facts(const sys::FileSystem& fs, const GatherOptions& /*options*/) {
  return probe::probe_files(fs);
}

}  // namespace gpudoctor::cli
