// Capture: turns the paths the probes touched on the live machine into a machine tree that
// `check --root` replays exactly. Symlinks stay symlinks (sysfs's driver links, /proc/self),
// device nodes become empty files whose type, mode and owner go into the /.gpudoctor/stat sidecar.
// Nothing secret goes in: /proc/*/environ keeps only the allowlisted variables, /proc/*/cmdline
// loses the values of secret-looking options, /etc/passwd and /etc/group keep only the lines the
// checks read, and URLs lose their user:password.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <sys/archive.hpp>
#include <sys/recording_file_system.hpp>

namespace gpudoctor::probe {

// A file larger than the copy bound, captured as only the bytes the probes read.
struct PartialFile {
  std::string path;
  std::uint64_t size = 0;
  std::vector<sys::ByteRange> ranges;
};

struct Capture {
  std::vector<sys::ArchiveEntry> entries;
  std::vector<std::string> skipped;  // "PATH: why" for what could not be copied
  std::vector<PartialFile> partial;
};

inline constexpr std::size_t k_capture_file_limit = 32 << 20;  // copied whole up to this size
inline constexpr std::uint64_t k_capture_range_limit = 64 << 20;  // bytes kept of one larger file

// Whose account lines may go into the capture: the running user's /etc/passwd line, and the
// /etc/group lines of the groups that own the GPU device nodes or that checks name (render, video).
struct CaptureScope {
  std::optional<std::uint32_t> uid;
  std::set<std::uint32_t> gids;
};

// `extra`: files that are not on disk but are facts all the same (the driver's answers, capture
// metadata), keyed by their path inside the tree ("/.gpudoctor/capture.json"). `ranges`: the bytes
// read of each path (RecordingFileSystem::ranges): a file over k_capture_file_limit is captured as
// those bytes at their offsets, zeros elsewhere, when they add up to at most k_capture_range_limit;
// otherwise it is left out and listed in `skipped`.
Capture build_capture(const sys::FileSystem& live, const std::set<sys::RecordedAccess>& accesses,
                      const std::map<std::string, std::string>& extra,
                      const std::map<std::string, std::vector<sys::ByteRange>>& ranges = {},
                      const CaptureScope& scope = {});

// Keeps only allowlisted NAME=VALUE entries of a NUL-separated environ block, and of those none
// whose name or value looks like a credential (util/secrets.hpp).
std::string filter_environ(std::string_view environ_block);
// The running user's line of /etc/passwd, reduced to name, UID and GID; "" when `uid` is unknown.
std::string filter_passwd(std::string_view passwd, std::optional<std::uint32_t> uid);
// The lines of /etc/group whose GID is in `gids`, without their member lists.
std::string filter_group(std::string_view group, const std::set<std::uint32_t>& gids);

}  // namespace gpudoctor::probe
