// libFuzzer target for what `check` reads from a machine's files: /sys (PCI devices, modules), /proc
// (modules, version, cmdline, the NVIDIA driver's files, environ, status, cgroup, mountinfo), /etc
// (os-release, group, passwd, ld.so.cache), /dev listings, the ROCm files, and a capture's recorded
// driver answers (/.gpudoctor/driver.json). The bytes are a list of files, each "@@ PATH\n" followed
// by its content; they go into an in-memory file system, through every file probe (probe_files) and
// then every check. Nothing may crash, hang, or grow without bound.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <checks/check.hpp>
#include <probe/probe.hpp>
#include <sys/memory_file_system.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> files;
  std::size_t at = text.starts_with("@@ ") ? 0 : text.find("\n@@ ");
  while (at != std::string_view::npos && files.size() < 256) {
    std::size_t path_begin = at + (text[at] == '\n' ? 4 : 3);
    std::size_t eol = text.find('\n', path_begin);
    if (eol == std::string_view::npos) break;
    std::string path(text.substr(path_begin, eol - path_begin));
    std::size_t next = text.find("\n@@ ", eol);
    std::size_t end = next == std::string_view::npos ? text.size() : next;
    if (path.starts_with('/')) files[path] = std::string(text.substr(eol + 1, end - eol - 1));
    at = next;
  }
  auto fs = gpudoctor::sys::make_memory_file_system(std::move(files));
  auto facts = gpudoctor::probe::probe_files(*fs);
  gpudoctor::checks::run_checks(facts);
  return 0;
}
