// An in-memory FileSystem of regular files (leveldb's NewMemEnv): for tests and fuzzers that feed a
// parser bytes without touching the disk. Directories exist implicitly as prefixes of file paths.
// No symlinks, no device nodes. Thread-safety: immutable after construction; const methods only.
#pragma once

#include <map>
#include <memory>
#include <string>

#include <sys/file_system.hpp>

namespace gpudoctor::sys {

// `files`: absolute Linux path -> content.
std::unique_ptr<FileSystem> make_memory_file_system(std::map<std::string, std::string> files);

}  // namespace gpudoctor::sys
