#include <scan/file_walk.hpp>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <scan/scanner.hpp>

namespace gpudoctor::scan {
namespace {

namespace fs = std::filesystem;

TEST(FileWalk, SkipsVenvsSitePackagesAndGitUnlessNamed) {
  fs::path root = fs::path(GPUDOCTOR_BINARY_DIR) / "scan_test_tmp" / "walk";
  fs::remove_all(root);
  for (const char* d : {"src/pkg", ".git/hooks", "venv/lib", "lib/site-packages/torch", "node_modules/x", "notebooks"}) {
    fs::create_directories(root / d);
  }
  std::ofstream(root / "venv" / "pyvenv.cfg") << "home = /usr/bin\n";
  for (const char* f : {"train.py", "src/pkg/model.py", "src/pkg/README.md", ".git/hooks/pre-commit.py",
                        "venv/lib/a.py", "lib/site-packages/torch/b.py", "node_modules/x/c.py", "notebooks/eda.ipynb"}) {
    std::ofstream(root / f) << "x = 1\n";
  }
  ScanConfig config;
  auto sel = select_files({root.string()}, config);
  std::vector<std::string> rel;
  for (const auto& f : sel.files) rel.push_back(f.relative);
  EXPECT_EQ(rel, (std::vector<std::string>{"notebooks/eda.ipynb", "src/pkg/model.py", "train.py"}));
  EXPECT_EQ(sel.files.back().display, root.string() + "/train.py");

  auto named = select_files({(root / "lib" / "site-packages").string()}, config);
  ASSERT_EQ(named.files.size(), 1u) << "a skipped kind of directory is scanned when named";

  config.exclude = {"src"};
  EXPECT_EQ(select_files({root.string()}, config).files.size(), 2u);
  EXPECT_EQ(select_files({(root / "missing").string()}, config).missing.size(), 1u);
  fs::remove_all(root);
}

TEST(FileWalk, ParallelScanIsDeterministic) {
  fs::path examples = fs::path(GPUDOCTOR_SOURCE_DIR) / "tests" / "scan";
  ScanConfig config;
  auto sel = select_files({examples.string()}, config);
  ASSERT_GT(sel.files.size(), 20u);
  auto one = scan_files(sel.files, config, 1);
  auto many = scan_files(sel.files, config, 8);
  EXPECT_EQ(one.findings, many.findings);
  EXPECT_EQ(one.bytes, many.bytes);
}

}  // namespace
}  // namespace gpudoctor::scan
