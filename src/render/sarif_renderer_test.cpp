#include <render/sarif_renderer.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::render {
namespace {

TEST(SarifRenderer, ResultsCarryRuleLevelAndPhysicalLocation) {
  facts::FindingInfo infos[] = {{"code.sync_in_loop", facts::Layer::code, facts::Severity::warning, "Sync every step",
                                 "item() in the loop", "accumulate on device"}};
  Report report;
  report.command = "scan";
  facts::Finding a{"code.sync_in_loop", facts::Layer::code, facts::Severity::warning, "loss.item() every step", {},
                   "fix it", "docs/rules/code.sync_in_loop.md", facts::SourceLocation{"train.py", 41, 5, ""}, {}};
  facts::Finding b = a;
  b.severity = facts::Severity::info;
  b.location = facts::SourceLocation{"nb.ipynb", 2, 1, "cell 4", 0};
  facts::Finding c = b;
  c.location = facts::SourceLocation{"nb.ipynb", 3, 1, "cell [7]", 58};
  report.findings = {a, b, c};
  report.notes = {"x.py: binary content; skipped"};
  auto j = report_to_sarif(report, infos);
  EXPECT_EQ(j["version"], "2.1.0");
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "gpudoctor");
  ASSERT_EQ(run["tool"]["driver"]["rules"].size(), 1u);
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"], "warning");
  ASSERT_EQ(run["results"].size(), 3u);
  const auto& r0 = run["results"][0];
  EXPECT_EQ(r0["ruleId"], "code.sync_in_loop");
  EXPECT_EQ(r0["ruleIndex"], 0);
  EXPECT_EQ(r0["level"], "warning");
  EXPECT_EQ(r0["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "train.py");
  EXPECT_EQ(r0["locations"][0]["physicalLocation"]["region"]["startLine"], 41);
  EXPECT_EQ(r0["locations"][0]["physicalLocation"]["region"]["startColumn"], 5);
  const auto& r1 = run["results"][1];
  EXPECT_EQ(r1["level"], "note");
  EXPECT_FALSE(r1["locations"][0]["physicalLocation"].contains("region"));
  EXPECT_EQ(r1["properties"]["cell"], "cell 4");
  EXPECT_NE(r1["message"]["text"].get<std::string>().find("cell 4, line 2"), std::string::npos);
  // A notebook finding whose line in the .ipynb is known points there.
  EXPECT_EQ(run["results"][2]["locations"][0]["physicalLocation"]["region"]["startLine"], 58);
  EXPECT_EQ(run["results"][2]["properties"]["cell"], "cell [7]");
  EXPECT_EQ(run["invocations"][0]["toolExecutionNotifications"].size(), 1u);
}

}  // namespace
}  // namespace gpudoctor::render
