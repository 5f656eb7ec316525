#include <fleet/join.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace gpudoctor::fleet {
namespace {

NodeReport node(std::string name, std::string driver = "550.54.14", std::vector<std::string> errors = {}) {
  NodeReport r;
  r.node = name;
  r.host = name;
  r.schema_version = 1;
  r.command = "check";
  r.tool_version = "0.1.0";
  r.time = "2026-12-03T10:00:00Z";
  r.driver_version = driver;
  r.cuda_driver_api = "12.4";
  r.kernel = "6.1.0-18-amd64";
  r.gpu_models = std::vector<std::string>(8, "NVIDIA H100 80GB HBM3");
  r.builds = {{"/opt/venv/bin/python", "torch", "2.3.0", "cuda", "12.1"}};
  for (auto& e : errors) r.findings.push_back({e, facts::Severity::error, facts::Layer::driver, e + " message", "", false});
  return r;
}

const facts::Finding* find(const Fleet& f, std::string_view id) {
  for (const auto& x : f.findings)
    if (x.id == id) return &x;
  return nullptr;
}

TEST(Join, OddNodeOutIsNamedFirstWithTheMajority) {
  FleetInput in;
  for (int i = 1; i <= 64; ++i) in.reports.push_back(node(fmt::format("gpu{:03}", i), i == 17 ? "535.104.05" : "550.54.14"));
  Fleet f = join_fleet(in);
  EXPECT_EQ(f.nodes, 64);
  EXPECT_EQ(f.healthy, 64);
  ASSERT_FALSE(f.odd_ones_out.empty());
  EXPECT_EQ(f.odd_ones_out[0], "gpu017: driver 535.104.05 while 63 nodes run 550.54.14");
  const auto* skew = find(f, "fleet.driver_skew");
  ASSERT_NE(skew, nullptr);
  EXPECT_EQ(skew->message, "gpu017: driver 535.104.05 while 63 nodes run 550.54.14");
  EXPECT_NE(std::find(skew->evidence.begin(), skew->evidence.end(), "driver 550.54.14: gpu[001-016,018-064] (63)"),
            skew->evidence.end());
}

TEST(Join, GroupsNodesByFindingsFailingFirst) {
  FleetInput in;
  in.reports = {node("node1"), node("node2", "550.54.14", {"driver.version_mismatch"}), node("node3", "550.54.14", {"driver.uvm_missing"}),
                node("node4", "550.54.14", {"driver.uvm_missing"})};
  Fleet f = join_fleet(in);
  EXPECT_EQ(f.failing, 3);
  EXPECT_EQ(f.healthy, 1);
  ASSERT_EQ(f.groups.size(), 3u);
  EXPECT_EQ(f.groups[0].hostlist, "node2");
  EXPECT_EQ(f.groups[1].hostlist, "node[3-4]");
  EXPECT_EQ(f.groups[2].hostlist, "node1");
  EXPECT_TRUE(f.groups[2].findings.empty());
  ASSERT_FALSE(f.findings.empty());
  EXPECT_EQ(f.findings[0].id, "fleet.failing_nodes");
  EXPECT_EQ(f.findings[0].message, "3 of 4 nodes fail a check: node[2-4].");
  EXPECT_EQ(find(f, "fleet.driver_skew"), nullptr);
}

TEST(Join, UnreachableNodesAreErrorsAndStillCounted) {
  FleetInput in;
  in.reports = {node("node1")};
  in.problems = {{NodeProblem::Kind::unreachable, "node2", "srun", "no report within the 10 s deadline"},
                 {NodeProblem::Kind::invalid, "", "bad.json", "bad.json: not valid JSON at byte 3"}};
  Fleet f = join_fleet(in);
  EXPECT_EQ(f.nodes, 2);
  EXPECT_EQ(f.unreachable, 1);
  const auto* u = find(f, "fleet.node_unreachable");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->severity, facts::Severity::error);
  EXPECT_EQ(u->evidence.at(0), "node2: no report within the 10 s deadline");
  const auto* bad = find(f, "fleet.report_invalid");
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(bad->severity, facts::Severity::warning);
}

TEST(Join, DuplicateHostsKeepTheNewerReport) {
  FleetInput in;
  auto old_one = node("node1", "550.54.14", {"driver.uvm_missing"});
  old_one.time = "2026-12-01T00:00:00Z";
  old_one.source = "old.json";
  auto new_one = node("node1");
  new_one.source = "new.json";
  in.reports = {old_one, new_one};
  Fleet f = join_fleet(in);
  EXPECT_EQ(f.nodes, 1);
  EXPECT_EQ(f.healthy, 1);
  ASSERT_NE(find(f, "fleet.duplicate_report"), nullptr);
}

TEST(Join, GpuCountAndFrameworkSkew) {
  FleetInput in;
  in.reports = {node("a1"), node("a2"), node("a3")};
  in.reports[1].gpu_models.pop_back();
  in.reports[2].builds[0] = {"/opt/venv/bin/python", "torch", "2.3.0", "cpu", ""};
  Fleet f = join_fleet(in);
  const auto* count = find(f, "fleet.gpu_count_mismatch");
  ASSERT_NE(count, nullptr);
  EXPECT_NE(count->message.find("a2: GPU count (NVIDIA H100 80GB HBM3) 7 while 2 nodes have 8"), std::string::npos) << count->message;
  const auto* fw = find(f, "fleet.framework_skew");
  ASSERT_NE(fw, nullptr);
  EXPECT_NE(fw->message.find("a3: torch in /opt/venv/bin/python 2.3.0 (cpu)"), std::string::npos) << fw->message;
  EXPECT_EQ(find(f, "fleet.gpu_model_mix"), nullptr);
}

TEST(Join, ANodeWithoutGpusIsNotAnotherGpuModel) {
  FleetInput in;
  in.reports = {node("gpu1"), node("gpu2"), node("gpu3"), node("login1")};
  in.reports[3].gpu_models.clear();
  Fleet f = join_fleet(in);
  EXPECT_EQ(find(f, "fleet.gpu_model_mix"), nullptr);
  const auto* none = find(f, "fleet.nodes_without_gpu");
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->severity, facts::Severity::info);
  EXPECT_NE(none->message.find("1 node shows no GPU while 3 nodes have GPUs: login1"), std::string::npos) << none->message;
  // Two real models still make a mix, whatever the GPU-less nodes.
  in.reports[2].gpu_models = {"NVIDIA A100-SXM4-80GB"};
  f = join_fleet(in);
  ASSERT_NE(find(f, "fleet.gpu_model_mix"), nullptr);
  // A fleet of CPU-only nodes says nothing about GPUs.
  for (auto& r : in.reports) r.gpu_models.clear();
  f = join_fleet(in);
  EXPECT_EQ(find(f, "fleet.nodes_without_gpu"), nullptr);
  EXPECT_EQ(find(f, "fleet.gpu_model_mix"), nullptr);
}

TEST(Join, UnknownValuesNeverMakeSkew) {
  FleetInput in;
  in.reports = {node("a1"), node("a2")};
  in.reports[1].driver_version.clear();
  Fleet f = join_fleet(in);
  EXPECT_EQ(find(f, "fleet.driver_skew"), nullptr);
}

}  // namespace
}  // namespace gpudoctor::fleet
