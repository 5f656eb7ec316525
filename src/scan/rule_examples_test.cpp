// The rule examples under tests/scan/<rule>/ run as tests (ast-grep's valid/invalid examples):
// every `# expect: code.ID` marker must be reported on its line, and the directory's own rule must
// report nothing else, in bad_* and good_* files alike (good_* files carry no marker for it).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include <scan/analyzer.hpp>
#include <scan/rules.hpp>
#include <scan/source.hpp>

namespace gpudoctor::scan {
namespace {

namespace fs = std::filesystem;

using Key = std::tuple<std::string, int, std::string>;  // (cell, line, id)

fs::path examples_dir() { return fs::path(GPUDOCTOR_SOURCE_DIR) / "tests" / "scan"; }

// `# expect: code.ID` or `# expect: code.ID=SEVERITY` (the finding must carry that severity).
std::set<Key> expected_markers(const SourceText& src, std::map<Key, std::string>* severities = nullptr) {
  std::set<Key> out;
  std::istringstream in(src.text);
  std::string line;
  for (int row = 0; std::getline(in, line); ++row) {
    for (std::size_t at = line.find("# expect: "); at != std::string::npos; at = line.find("# expect: ", at + 1)) {
      std::istringstream ids(line.substr(at + 10));
      std::string id;
      while (ids >> id && id.rfind("code.", 0) == 0) {
        if (id.back() == ',') id.pop_back();
        std::string severity;
        if (auto eq = id.find('='); eq != std::string::npos) {
          severity = id.substr(eq + 1);
          id.resize(eq);
        }
        auto loc = src.locate(row, 0);
        out.insert({loc.cell, loc.line, id});
        if (severities != nullptr && !severity.empty()) (*severities)[{loc.cell, loc.line, id}] = severity;
      }
    }
  }
  return out;
}

std::string show(const Key& k) {
  const auto& [cell, line, id] = k;
  return (cell.empty() ? "" : cell + ", ") + "line " + std::to_string(line) + ": " + id;
}

TEST(RuleExamples, EveryRuleHasBadAndGoodExamples) {
  for (const auto& r : all_rules()) {
    std::string dir = std::string(r.info.id.substr(5));
    bool bad = false, good = false;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(examples_dir() / dir, ec)) {
      std::string name = e.path().filename().string();
      bad = bad || name.rfind("bad_", 0) == 0;
      good = good || name.rfind("good_", 0) == 0;
    }
    EXPECT_TRUE(bad) << "tests/scan/" << dir << " needs a bad_* example";
    EXPECT_TRUE(good) << "tests/scan/" << dir << " needs a good_* example";
  }
}

TEST(RuleExamples, FindingsMatchExpectMarkers) {
  int files = 0;
  for (const auto& r : all_rules()) {
    std::string rule_id(r.info.id);
    fs::path dir = examples_dir() / rule_id.substr(5);
    std::error_code ec;
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(dir, ec)) paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
      std::string display = rule_id.substr(5) + "/" + p.filename().string();
      auto src = load_source(p.string(), display, k_default_max_file_bytes);
      ASSERT_TRUE(src) << src.error().message;
      ++files;
      std::map<Key, std::string> severities;
      auto expected = expected_markers(*src, &severities);
      bool is_good = p.filename().string().rfind("good_", 0) == 0;
      for (const auto& k : expected) {
        if (is_good) {
          EXPECT_NE(std::get<2>(k), rule_id) << display << ": a good example must not expect its own rule";
        }
      }
      std::set<Key> found;
      for (const auto& f : analyze(*src).findings) {
        Key k{f.location->cell, f.location->line, f.id};
        found.insert(k);
        if (auto s = severities.find(k); s != severities.end()) {
          EXPECT_EQ(std::string(facts::to_string(f.severity)), s->second) << display << ": severity of " << show(k);
        }
      }
      for (const auto& k : expected) EXPECT_TRUE(found.count(k)) << display << ": not reported: " << show(k);
      for (const auto& k : found) {
        if (std::get<2>(k) == rule_id && !expected.count(k)) ADD_FAILURE() << display << ": unexpected " << show(k);
      }
    }
  }
  EXPECT_GE(files, 2 * static_cast<int>(all_rules().size()));
}

}  // namespace
}  // namespace gpudoctor::scan
