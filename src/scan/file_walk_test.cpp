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

TEST(FileWalk, FileSymlinksOutOfTheTreeAreNotRead) {
  fs::path base = fs::path(GPUDOCTOR_BINARY_DIR) / "scan_test_tmp" / "links";
  fs::remove_all(base);
  fs::create_directories(base / "repo" / "pkg");
  fs::create_directories(base / "elsewhere");
  std::ofstream(base / "elsewhere" / "secret.py") << "token = 'x'\n";
  std::ofstream(base / "repo" / "pkg" / "model.py") << "x = 1\n";
  fs::create_symlink(base / "elsewhere" / "secret.py", base / "repo" / "out.py");
  fs::create_symlink("../../elsewhere/secret.py", base / "repo" / "pkg" / "rel_out.py");
  fs::create_symlink("pkg/model.py", base / "repo" / "alias.py");    // inside, and scanned anyway
  fs::create_symlink(base / "elsewhere", base / "repo" / "vendored");  // a directory out of the tree: not followed
  fs::create_symlink("missing.py", base / "repo" / "broken.py");
  ScanConfig config;
  auto sel = select_files({(base / "repo").string()}, config);
  std::vector<std::string> rel;
  for (const auto& f : sel.files) rel.push_back(f.relative);
  EXPECT_EQ(rel, std::vector<std::string>{"pkg/model.py"});
  std::string notes;
  for (const auto& n : sel.notes) notes += n + "\n";
  EXPECT_NE(notes.find("out.py: a symlink out of the scanned tree"), std::string::npos) << notes;
  EXPECT_NE(notes.find("rel_out.py: a symlink out of the scanned tree"), std::string::npos) << notes;
  EXPECT_NE(notes.find("vendored: a symlink to a directory out of the scanned tree"), std::string::npos) << notes;
  EXPECT_NE(notes.find("broken.py: a broken symlink"), std::string::npos) << notes;

  // A link inside the tree to a file that is not otherwise scanned is read, under its own name.
  fs::create_directories(base / "repo" / "venv");
  std::ofstream(base / "repo" / "venv" / "pyvenv.cfg") << "home = /usr/bin\n";
  std::ofstream(base / "repo" / "venv" / "tool.py") << "y = 2\n";
  fs::create_symlink("venv/tool.py", base / "repo" / "tool.py");
  rel.clear();
  for (const auto& f : select_files({(base / "repo").string()}, config).files) rel.push_back(f.relative);
  EXPECT_EQ(rel, (std::vector<std::string>{"pkg/model.py", "tool.py"}));
  fs::remove_all(base);
}

// A directory linked inside the tree is walked (a package linked into src/), once; a link back to
// an ancestor ends the walk instead of looping.
TEST(FileWalk, DirectoryLinksInsideTheTreeAreFollowedOnce) {
  fs::path base = fs::path(GPUDOCTOR_BINARY_DIR) / "scan_test_tmp" / "dirlinks";
  fs::remove_all(base);
  fs::create_directories(base / "repo" / "vendor" / "lib");
  fs::create_directories(base / "repo" / "src");
  std::ofstream(base / "repo" / "vendor" / "lib" / "net.py") << "x = 1\n";
  fs::create_symlink("../vendor/lib", base / "repo" / "src" / "lib");  // inside: followed
  fs::create_symlink("..", base / "repo" / "src" / "loop");             // an ancestor: a loop
  ScanConfig config;
  auto sel = select_files({(base / "repo").string()}, config);
  std::vector<std::string> rel;
  for (const auto& f : sel.files) rel.push_back(f.relative);
  // The real directory comes first or through the link, never twice, never endlessly.
  ASSERT_EQ(rel.size(), 1u);
  EXPECT_TRUE(rel[0] == "vendor/lib/net.py" || rel[0] == "src/lib/net.py") << rel[0];
  // Named alone, the source directory reaches the package through its link.
  rel.clear();
  for (const auto& f : select_files({(base / "repo" / "src").string()}, config).files) rel.push_back(f.relative);
  EXPECT_EQ(rel, std::vector<std::string>{});  // the link leads out of src/: not followed
  fs::remove_all(base);
}

// Test files are skipped in a directory walk unless asked for; named ones are always scanned.
TEST(FileWalk, TestFilesAreSkippedUnlessIncluded) {
  fs::path base = fs::path(GPUDOCTOR_BINARY_DIR) / "scan_test_tmp" / "tests_skip";
  fs::remove_all(base);
  fs::create_directories(base / "repo" / "tests" / "unit");
  fs::create_directories(base / "repo" / "pkg");
  for (auto f : {"pkg/train.py", "pkg/test_model.py", "pkg/model_test.py", "conftest.py", "tests/unit/helpers.py",
                 "pkg/testing_utils.py", "pkg/contest.py"}) {
    std::ofstream(base / "repo" / f) << "x = 1\n";
  }
  ScanConfig config;
  auto sel = select_files({(base / "repo").string()}, config);
  std::vector<std::string> rel;
  for (const auto& f : sel.files) rel.push_back(f.relative);
  EXPECT_EQ(rel, (std::vector<std::string>{"pkg/contest.py", "pkg/testing_utils.py", "pkg/train.py"}));
  std::string notes;
  for (const auto& n : sel.notes) notes += n + "\n";
  EXPECT_NE(notes.find("4 test files or directories not scanned"), std::string::npos) << notes;
  config.include_tests = true;
  EXPECT_EQ(select_files({(base / "repo").string()}, config).files.size(), 7u);
  config.include_tests = false;
  EXPECT_EQ(select_files({(base / "repo" / "pkg" / "test_model.py").string()}, config).files.size(), 1u);
  EXPECT_EQ(select_files({(base / "repo" / "tests").string()}, config).files.size(), 1u);
  fs::remove_all(base);
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
