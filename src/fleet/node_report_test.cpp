#include <fleet/collect.hpp>
#include <fleet/node_report.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace gpudoctor::fleet {
namespace {

nlohmann::json report(std::string host) {
  return {{"schema_version", 1},
          {"tool", "gpudoctor"},
          {"tool_version", "0.1.0"},
          {"command", "check"},
          {"host", host},
          {"time", "2026-12-03T10:00:00Z"},
          {"findings",
           {{{"id", "driver.version_mismatch"}, {"severity", "error"}, {"layer", "driver"}, {"message", "mismatch"},
             {"evidence", {"kernel module: 550.54.14", "libnvidia-ml.so.550.90.07"}}},
            {{"id", "torch.cuda_unavailable"}, {"severity", "error"}, {"layer", "framework"}, {"message", "symptom"},
             {"evidence", nlohmann::json::array()}, {"explained_by", {"driver.version_mismatch"}}}}},
          {"facts",
           {{"environment",
             {{"kernel",
               {{"release", "6.1.0-18-amd64"},
                {"nvidia_version", "550.54.14"},
                {"nvidia_gpus", {{{"model", "NVIDIA H100 80GB HBM3"}}, {{"model", "NVIDIA H100 80GB HBM3"}}}}}}}},
            {"driver", {{"nvml", {{"driver_version", {{"unknown", "Driver/library version mismatch"}}}, {"cuda_driver_version", 12040}}}}},
            {"framework",
             {{"environments",
               {{{"interpreter", "/opt/venv/bin/python"},
                 {"builds", {{{"framework", "torch"}, {"version", "2.3.0"}, {"kind", "cuda"}, {"cuda_version", "12.1"}}}}}}}}}}}};
}

TEST(NodeReport, ReadsFindingsAndTheComparedFacts) {
  auto r = parse_node_report(report("gpu017").dump(2), "r.json");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->node, "gpu017");
  EXPECT_EQ(r->schema_version, 1);
  ASSERT_EQ(r->findings.size(), 2u);
  EXPECT_EQ(r->findings[0].id, "driver.version_mismatch");
  EXPECT_EQ(r->findings[0].severity, facts::Severity::error);
  EXPECT_EQ(r->findings[0].layer, facts::Layer::driver);
  EXPECT_EQ(r->findings[0].evidence, "kernel module: 550.54.14");
  EXPECT_FALSE(r->findings[0].explained);
  EXPECT_TRUE(r->findings[1].explained);
  EXPECT_EQ(r->driver_version, "550.54.14");
  EXPECT_EQ(r->cuda_driver_api, "12.4");
  EXPECT_EQ(r->gpu_models.size(), 2u);
  EXPECT_EQ(r->kernel, "6.1.0-18-amd64");
  ASSERT_EQ(r->builds.size(), 1u);
  EXPECT_EQ(r->builds[0], (FrameworkBuild{"/opt/venv/bin/python", "torch", "2.3.0", "cuda", "12.1"}));
}

TEST(NodeReport, PackageListsAreSkippedWithoutChangingWhatIsRead) {
  auto j = report("gpu1");
  nlohmann::json dists = nlohmann::json::array();
  for (int i = 0; i < 50; ++i)
    dists.push_back({{"name", "pkg" + std::to_string(i)}, {"version", "1.0"}, {"metadata_dir", "/x/]}\"[{"}});
  j["facts"]["framework"]["environments"][0]["distributions"] = dists;
  auto with = parse_node_report(j.dump(2), "with.json");
  ASSERT_TRUE(with) << with.error().message;
  auto plain = parse_node_report(report("gpu1").dump(2), "plain.json");
  ASSERT_TRUE(plain);
  EXPECT_EQ(with->builds, plain->builds);
  EXPECT_EQ(with->findings, plain->findings);
  EXPECT_EQ(with->driver_version, plain->driver_version);
  // A truncated list is still a clear parse error, not a crash.
  std::string cut = j.dump(2);
  cut = cut.substr(0, cut.find("pkg30"));
  EXPECT_FALSE(parse_node_report(cut, "cut.json"));
}

TEST(NodeReport, RefusesWhatIsNotACheckReportWithAReason) {
  auto truncated = parse_node_report(report("a").dump().substr(0, 200), "cut.json");
  ASSERT_FALSE(truncated);
  EXPECT_NE(truncated.error().message.find("cut.json"), std::string::npos);
  EXPECT_NE(truncated.error().message.find("not valid JSON"), std::string::npos);

  auto newer = report("a");
  newer["schema_version"] = 7;
  newer["tool_version"] = "9.0";
  auto n = parse_node_report(newer.dump(), "new.json");
  ASSERT_FALSE(n);
  EXPECT_NE(n.error().message.find("schema_version 7"), std::string::npos);
  EXPECT_NE(n.error().message.find("9.0"), std::string::npos);

  auto scan = report("a");
  scan["command"] = "scan";
  EXPECT_FALSE(parse_node_report(scan.dump(), "s.json"));
  EXPECT_FALSE(parse_node_report("[1,2,3]", "array.json"));
  EXPECT_FALSE(parse_node_report("{\"hello\": 1}", "other.json"));
  EXPECT_FALSE(parse_node_report("", "empty.json"));
  EXPECT_FALSE(parse_node_report(std::string(300, '['), "deep.json"));
}

TEST(NodeReport, HostileFieldsAreCutNotCopiedWhole) {
  auto j = report(std::string(1 << 20, 'h'));
  auto r = parse_node_report(j.dump(), "big-host.json");
  ASSERT_TRUE(r);
  EXPECT_LT(r->host.size(), 5000u);
}

TEST(NodeReport, SplitsConcatenatedReportsAndNamesGarbage) {
  std::string text = report("a").dump(2) + "\n" + report("b").dump() + "\nWARNING: stray line\n" + report("c").dump();
  auto v = split_json_values(text);
  EXPECT_EQ(v.values.size(), 3u);
  ASSERT_EQ(v.garbage.size(), 1u);
  EXPECT_NE(v.garbage[0].find("WARNING"), std::string::npos);
  // Braces inside strings do not end a value.
  auto s = split_json_values(R"({"a": "}{", "b": "\"}"} {"c": 1})");
  EXPECT_EQ(s.values.size(), 2u);
}

TEST(NodeReport, ATruncatedReportInAStreamLosesOnlyItself) {
  // JSON lines with the second report cut short at several points (a node killed mid-write): the
  // reports after it are still read, and only the cut one fails its parse.
  for (std::size_t cut : {std::size_t{1}, std::size_t{50}, std::size_t{120}, std::size_t{300}}) {
    std::string second = report("b").dump();
    ASSERT_LT(cut, second.size());
    std::string text = report("a").dump() + "\n" + second.substr(0, cut) + "\n" + report("c").dump() + "\n" +
                       report("d").dump(2) + "\n";
    auto v = split_json_values(text);
    ASSERT_EQ(v.values.size(), 4u) << cut;
    int parsed = 0;
    for (auto value : v.values) parsed += parse_node_report(value, "stdin") ? 1 : 0;
    EXPECT_EQ(parsed, 3) << cut;
    FleetInput in;
    read_report_stream(text, "stdin", in);
    EXPECT_EQ(in.reports.size(), 3u) << cut;
    EXPECT_EQ(in.problems.size(), 1u) << cut;
  }
}

// Standard input is read piece by piece (1 MiB chunks): 300 reports of which one is cut short are
// all read but that one, as from one string, and a labelled stream still works.
TEST(Collect, StandardInputIsReadAsItComes) {
  std::string text;
  std::string big_field(20000, 'x');
  for (int i = 0; i < 300; ++i) {
    auto r = report(fmt::format("node{:03}", i));
    r["padding"] = big_field;  // 300 x 20 KB: several chunks
    std::string line = r.dump();
    if (i == 150) line = line.substr(0, 5000);
    text += line + "\n";
  }
  text += "WARNING: stray line\n";
  std::istringstream in(text);
  FleetInput got = read_reports({"-"}, in);
  EXPECT_EQ(got.reports.size(), 299u);
  ASSERT_EQ(got.problems.size(), 2u);
  EXPECT_NE(got.problems[0].reason.find("stdin report 151"), std::string::npos) << got.problems[0].reason;
  EXPECT_NE(got.problems[1].reason.find("not a JSON report"), std::string::npos) << got.problems[1].reason;
  // Pretty-printed reports joined with no newline between them (`cat` of files without one).
  std::string joined;
  for (int i = 0; i < 50; ++i) {
    auto r = report(fmt::format("node{:03}", i));
    r["padding"] = big_field;
    joined += r.dump(2);
  }
  std::istringstream cat(joined);
  FleetInput c = read_reports({"-"}, cat);
  EXPECT_EQ(c.reports.size(), 50u);
  EXPECT_TRUE(c.problems.empty()) << (c.problems.empty() ? "" : c.problems[0].reason);
  std::string pdsh;
  for (std::string host : {"gpu1", "gpu2"}) pdsh += host + ": " + report("localhost").dump() + "\n";
  std::istringstream labelled(pdsh);
  FleetInput l = read_reports({"-"}, labelled);
  ASSERT_EQ(l.reports.size(), 2u);
  EXPECT_EQ(l.reports[0].node, "gpu1");
}

TEST(Collect, PdshOutputIsDemultiplexedByHost) {
  std::string out;
  for (std::string host : {"gpu1", "gpu2"}) {
    std::string pretty = report("localhost").dump(2);
    std::size_t pos = 0;
    while (pos < pretty.size()) {
      std::size_t nl = pretty.find('\n', pos);
      out += host + ": " + pretty.substr(pos, nl - pos) + "\n";
      pos = nl == std::string::npos ? pretty.size() : nl + 1;
    }
  }
  FleetInput in;
  read_report_stream(out, "stdin", in);
  ASSERT_EQ(in.reports.size(), 2u) << (in.problems.empty() ? "" : in.problems[0].reason);
  EXPECT_EQ(in.reports[0].node, "gpu1");
  EXPECT_EQ(in.reports[1].node, "gpu2");
}

TEST(Collect, UnlabelledJsonLinesKeepTheReportsHost) {
  std::string out = report("n1").dump() + "\n" + report("n2").dump() + "\n";
  FleetInput in;
  read_report_stream(out, "stdin", in);
  ASSERT_EQ(in.reports.size(), 2u);
  EXPECT_EQ(in.reports[1].node, "n2");
  EXPECT_TRUE(split_labelled_lines(out).empty());
}

}  // namespace
}  // namespace gpudoctor::fleet
