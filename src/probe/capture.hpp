// Capture: turns the paths the probes touched on the live machine into a machine tree that
// `check --root` replays exactly. Symlinks stay symlinks (sysfs's driver links, /proc/self),
// device nodes become empty files whose type, mode and owner go into the /.gpudoctor/stat sidecar,
// and /proc/*/environ keeps only the allowlisted variables.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <sys/archive.hpp>
#include <sys/recording_file_system.hpp>

namespace gpudoctor::probe {

struct Capture {
  std::vector<sys::ArchiveEntry> entries;
  std::vector<std::string> skipped;  // "PATH: why" for what could not be copied
};

// `extra`: files that are not on disk but are facts all the same (the driver's answers, capture
// metadata), keyed by their path inside the tree ("/.gpudoctor/capture.json").
Capture build_capture(const sys::FileSystem& live, const std::set<sys::RecordedAccess>& accesses,
                      const std::map<std::string, std::string>& extra);

// Keeps only allowlisted NAME=VALUE entries of a NUL-separated environ block.
std::string filter_environ(std::string_view environ_block);

}  // namespace gpudoctor::probe
