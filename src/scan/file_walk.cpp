#include <scan/file_walk.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

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

// A test file or a test directory: tests/, test/, test_*.py, *_test.py, conftest.py.
bool is_test_dir(const fs::path& dir) {
  auto name = dir.filename().string();
  return name == "tests" || name == "test";
}
bool is_test_file(const fs::path& p) {
  auto name = p.filename().string();
  auto stem = p.stem().string();
  return name == "conftest.py" || stem.starts_with("test_") || stem.ends_with("_test");
}

bool scanned_extension(const fs::path& p) {
  auto ext = p.extension();
  return ext == ".py" || ext == ".ipynb";
}

// Whether `p` (a real path) is `root` or below it.
bool inside(const fs::path& p, const fs::path& root) {
  auto rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
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
    std::size_t skipped = 0, tests = 0;
    const fs::path real_root = fs::weakly_canonical(fs::absolute(root, ec), ec);
    std::set<std::string> real_dirs{real_root.string()};  // directories walked: a link loop ends here
    // A test directory named on the command line is scanned whole.
    const bool include_tests = config.include_tests || is_test_dir(real_root);
    std::set<std::string> real_files;           // real paths of the regular files selected under root
    std::vector<std::pair<ScanInput, std::string>> links;  // file symlinks inside the tree, and their targets
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
        if (entry.is_symlink(e2)) {
          // A link is read only when its target is a file inside the scanned tree: one pointing out
          // of it (to /etc/shadow, to another checkout) would be read and reported under the
          // in-tree name. Directory links are not followed (no cycles, no escaping).
          // A directory link is followed when it stays inside the tree (a package linked into
          // src/), once per real directory, so a loop ends.
          if (!scanned_extension(p) && !entry.is_directory(e2)) continue;
          if (config.excluded(relative)) continue;
          auto target = fs::canonical(p, e2);
          if (e2) {
            out.notes.push_back(join_display(root, relative) + ": a broken symlink; skipped");
          } else if (fs::is_directory(target, e2)) {
            if (!inside(target, real_root) && target != real_root) {
              out.notes.push_back(join_display(root, relative) + ": a symlink to a directory out of the scanned tree (" +
                                  target.string() + "), not followed; name it to scan it");
            } else if (real_dirs.insert(target.string()).second && !skipped_dir(target) &&
                       (include_tests || !is_test_dir(p))) {
              stack.push_back(p);
            }
          } else if (!inside(target, real_root)) {
            out.notes.push_back(join_display(root, relative) + ": a symlink out of the scanned tree (to " +
                                target.string() + "); not read");
          } else if (fs::is_regular_file(target, e2)) {
            links.push_back({{p.string(), join_display(root, relative), relative}, target.string()});
          }
          continue;
        }
        if (entry.is_directory(e2)) {
          if (skipped_dir(p)) {
            // Caches hold no source worth a note; venvs, site-packages and .git are worth naming.
            std::string name = p.filename().string();
            if (name != "__pycache__" && name.find("cache") == std::string::npos && name != ".ipynb_checkpoints") {
              ++skipped;
            }
            continue;
          }
          if (config.excluded(relative)) continue;
          if (!include_tests && is_test_dir(p)) {
            ++tests;
            continue;
          }
          auto real = fs::canonical(p, e2);
          if (!e2 && !real_dirs.insert(real.string()).second) continue;  // reached before through a link
          stack.push_back(p);
        } else if (entry.is_regular_file(e2) && scanned_extension(p) && !config.excluded(relative)) {
          if (!include_tests && is_test_file(p)) {
            ++tests;
            continue;
          }
          out.files.push_back({p.string(), join_display(root, relative), relative});
          real_files.insert((real_root / relative).string());
        }
      }
    }
    // A link to a file that is scanned anyway would report it twice.
    for (auto& [input, target] : links) {
      if (real_files.insert(target).second) out.files.push_back(std::move(input));
    }
    if (tests > 0) {
      out.notes.push_back(root + ": " + std::to_string(tests) +
                          " test files or directories not scanned (tests/, test/, test_*.py, *_test.py, conftest.py); "
                          "--include-tests scans them");
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
