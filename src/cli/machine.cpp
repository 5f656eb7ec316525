#include <cli/machine.hpp>

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace gpudoctor::cli {

sys::Expected<Machine> Machine::open(const std::string& root) {
  Machine m;
  m.m_display_root = root;
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0) return sys::error_from_errno(errno, "--root " + root);
  if (S_ISDIR(st.st_mode)) {
    m.m_fs = sys::make_rooted_file_system(root);
    return m;
  }
  if (!S_ISREG(st.st_mode)) return sys::Error{sys::ErrorCode::invalid, "--root " + root + ": not a directory or archive"};
  auto dir = sys::TempDir::create("gpudoctor-root-");
  if (!dir) return dir.error();
  auto ok = sys::extract_archive(root, dir->path());
  if (!ok) return ok.error();
  m.m_fs = sys::make_rooted_file_system(dir->path());
  m.m_unpacked.emplace(std::move(dir.value()));
  return m;
}

sys::Expected<facts::Facts> load_facts_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return sys::error_from_errno(errno, "--facts " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    auto j = nlohmann::json::parse(ss.str());
    // A full report (`check --json`) carries the facts under "facts"; accept both.
    if (j.is_object() && j.contains("findings") && j.contains("facts")) j = j["facts"];
    return j.get<facts::Facts>();
  } catch (const std::exception& e) {
    return sys::Error{sys::ErrorCode::invalid, "--facts " + path + ": " + e.what()};
  }
}

}  // namespace gpudoctor::cli
