// Which files `gpudoctor scan PATH...` reads: every .py and .ipynb under each directory PATH,
// skipping what is not the project's own code (.git, virtual environments — any directory holding
// a pyvenv.cfg — site-packages, dist-packages, node_modules, __pycache__, tool caches) unless that
// directory is itself named on the command line. A file named on the command line is always read.
// Directory symlinks are not followed (no cycles, no escaping the tree), and a file symlink is read
// only when its target is inside the tree (each skipped link gets a note). The result is sorted, so
// output order never depends on the file system.
#pragma once

#include <string>
#include <vector>

#include <scan/config.hpp>

namespace gpudoctor::scan {

struct ScanInput {
  std::string path;      // to open
  std::string display;   // to print: the PATH given, joined with the path below it
  std::string relative;  // below the PATH given, for exclude patterns ("" for a file given directly)
};

struct FileSelection {
  std::vector<ScanInput> files;
  std::vector<std::string> notes;    // unreadable directories, skipped trees
  std::vector<std::string> missing;  // PATHs that do not exist
};

FileSelection select_files(const std::vector<std::string>& paths, const ScanConfig& config);

}  // namespace gpudoctor::scan
