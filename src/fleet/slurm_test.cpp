#include <fleet/slurm.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::fleet {
namespace {

std::vector<facts::Finding> with_error(std::string id) {
  facts::Finding f;
  f.id = id;
  f.severity = facts::Severity::error;
  return {f};
}

std::vector<facts::Finding> only_warning() {
  facts::Finding f;
  f.id = "gpu.persistence_off";
  f.severity = facts::Severity::warning;
  return {f};
}

TEST(SlurmHealth, AnErrorDrainsAHealthyLookingNode) {
  auto p = plan_health({"node2", "idle", "none"}, with_error("driver.version_mismatch"));
  EXPECT_EQ(p.action, HealthAction::drain);
  EXPECT_EQ(p.reason, "gpudoctor: driver.version_mismatch");
  EXPECT_EQ(p.scontrol, (std::vector<std::string>{"scontrol", "update", "NodeName=node2", "State=DRAIN",
                                                  "Reason=gpudoctor: driver.version_mismatch"}));
}

TEST(SlurmHealth, WarningsNeverDrain) {
  EXPECT_EQ(plan_health({"node1", "idle", "none"}, only_warning()).action, HealthAction::none);
  EXPECT_TRUE(plan_health({"node1", "mixed", "none"}, only_warning()).scontrol.empty());
}

TEST(SlurmHealth, ResumesOnlyWhatItDrained) {
  EXPECT_EQ(plan_health({"node2", "drained", "gpudoctor: driver.version_mismatch"}, {}).action, HealthAction::resume);
  EXPECT_EQ(plan_health({"node2", "draining", "gpudoctor: driver.uvm_missing"}, only_warning()).action, HealthAction::resume);
  EXPECT_EQ(plan_health({"node2", "drained", "hardware swap"}, {}).action, HealthAction::leave_alone);
  EXPECT_EQ(plan_health({"node2", "drained", "NHC: check_fs_mount failed"}, with_error("driver.uvm_missing")).action,
            HealthAction::leave_alone);
  EXPECT_EQ(plan_health({"node2", "down*", "Not responding"}, {}).action, HealthAction::leave_alone);
}

TEST(SlurmHealth, ADrainOfItsOwnIsKeptOrItsReasonUpdated) {
  EXPECT_EQ(plan_health({"n", "drained", "gpudoctor: driver.uvm_missing"}, with_error("driver.uvm_missing")).action,
            HealthAction::none);
  auto p = plan_health({"n", "drained", "gpudoctor: driver.uvm_missing"}, with_error("driver.version_mismatch"));
  EXPECT_EQ(p.action, HealthAction::update_reason);
  EXPECT_EQ(p.reason, "gpudoctor: driver.version_mismatch");
}

TEST(SlurmHealth, SeveralErrorsNameTheRootCauseAndCount) {
  auto findings = with_error("driver.version_mismatch");
  auto symptom = with_error("torch.cuda_unavailable");
  symptom[0].explained_by = {"driver.version_mismatch"};
  findings.push_back(symptom[0]);
  findings.push_back(with_error("driver.uvm_missing")[0]);
  EXPECT_EQ(plan_health({"n", "idle", "none"}, findings).reason, "gpudoctor: driver.version_mismatch (+1 more)");
}

TEST(Sinfo, ParsesStatesAndSchedulability) {
  auto nodes = parse_sinfo("node1|idle|none\nnode2|drained|gpudoctor: driver.uvm_missing\nnode3|idle*|Not responding\n"
                           "node1|idle|none\nnode4|mixed|none\nnode5|down|reboot\nnode6|allocated|none\n");
  ASSERT_EQ(nodes.size(), 6u);
  EXPECT_EQ(nodes[1].reason, "gpudoctor: driver.uvm_missing");
  EXPECT_TRUE(schedulable(nodes[0]));
  EXPECT_FALSE(schedulable(nodes[1]));
  EXPECT_FALSE(schedulable(nodes[2]));
  EXPECT_TRUE(schedulable(nodes[3]));
  EXPECT_FALSE(schedulable(nodes[4]));
  EXPECT_FALSE(schedulable(nodes[5])) << "a fully allocated node would hold the one srun for all nodes";
}

}  // namespace
}  // namespace gpudoctor::fleet
