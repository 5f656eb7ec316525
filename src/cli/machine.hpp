// Where a command's facts come from: the live machine ("/"), a captured tree given as a directory
// or a .tar.gz (unpacked to a private temporary directory for the command's lifetime), or a facts
// dump (--facts FILE, no file access at all).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <facts/facts.hpp>
#include <sys/archive.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::cli {

class Machine {
 public:
  // `root` is "/" for the live machine. Errors are usage errors (missing path, bad archive).
  static sys::Expected<Machine> open(const std::string& root);

  const sys::FileSystem& fs() const { return *m_fs; }
  bool is_live() const { return m_fs->is_live(); }
  const std::string& display_root() const { return m_display_root; }

 private:
  Machine() = default;
  std::optional<sys::TempDir> m_unpacked;
  std::unique_ptr<sys::FileSystem> m_fs;
  std::string m_display_root;
};

// Reads a `gpudoctor facts --json` dump.
sys::Expected<facts::Facts> load_facts_file(const std::string& path);

}  // namespace gpudoctor::cli
