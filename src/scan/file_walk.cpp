#include <scan/file_walk.hpp>

#include <algorithm>
#include <filesystem>

namespace gpudoctor::scan {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_skipped_dirs[] = {".git",        ".hg",          ".svn",       "__pycache__", "node_modules",
                                               "site-packages", "dist-packages", ".tox",     ".nox",        ".mypy_cache",
                                               ".pytest_cache", ".ruff_cache",  ".ipynb_checkpoints"};

bool skipped_dir(const fs::path& dir) {
  std::string name = dir.filename().string();
  for (auto s : k_skipped_dirs) {
    if (name == s) return true;
  }
  std::error_code ec;
  return fs::exists(dir / "pyvenv.cfg", ec);  // a virtual environment (PEP 405)
}

bool scanned_extension(const fs::path& p) {
  auto ext = p.extension();
  return ext == ".py" || ext == ".ipynb";
}

std::string join_display(const std::string& root, const std::string& relative) {
  if (root.empty() || root == ".") return relative;
  return root.back() == '/' ? root + relative : root + "/" + relative;
}

}  // namespace

FileSelection select_files(const std::vector<std::string>& paths, const ScanConfig& config) {
  FileSelection out;
  for (const auto& root : paths) {
    std::error_code ec;
    auto status = fs::status(root, ec);
    if (ec || !fs::exists(status)) {
      out.missing.push_back(root);
      continue;
    }
    if (!fs::is_directory(status)) {
      out.files.push_back({root, root, ""});
      continue;
    }
    std::vector<fs::path> stack{fs::path(root)};
    std::size_t skipped = 0;
    while (!stack.empty()) {
      fs::path dir = std::move(stack.back());
      stack.pop_back();
      fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
      if (ec) {
        out.notes.push_back(dir.string() + ": not readable (" + ec.message() + "); skipped");
        continue;
      }
      for (const auto& entry : it) {
        std::error_code e2;
        const fs::path& p = entry.path();
        std::string relative = fs::path(p).lexically_relative(root).generic_string();
        if (entry.is_directory(e2) && !entry.is_symlink(e2)) {
          if (skipped_dir(p)) {
            // Caches hold no source worth a note; venvs, site-packages and .git are worth naming.
            std::string name = p.filename().string();
            if (name != "__pycache__" && name.find("cache") == std::string::npos && name != ".ipynb_checkpoints") {
              ++skipped;
            }
            continue;
          }
          if (config.excluded(relative)) continue;
          stack.push_back(p);
        } else if (entry.is_regular_file(e2) && scanned_extension(p) && !config.excluded(relative)) {
          out.files.push_back({p.string(), join_display(root, relative), relative});
        }
      }
    }
    if (skipped > 0) {
      out.notes.push_back(root + ": " + std::to_string(skipped) +
                          " directories skipped (.git, virtual environments, site-packages, node_modules); "
                          "name one explicitly to scan it");
    }
  }
  std::sort(out.files.begin(), out.files.end(), [](const ScanInput& a, const ScanInput& b) { return a.display < b.display; });
  out.files.erase(std::unique(out.files.begin(), out.files.end(),
                              [](const ScanInput& a, const ScanInput& b) { return a.display == b.display; }),
                  out.files.end());
  return out;
}

}  // namespace gpudoctor::scan
