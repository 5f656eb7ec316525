#include <render/prometheus.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::render {
namespace {

TEST(Prometheus, LabelValuesAreEscapedAndValidUtf8) {
  EXPECT_EQ(prometheus_label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(prometheus_label("bad\xff"), "bad\xef\xbf\xbd");
}

TEST(Prometheus, OneFindingIdOnceValuedByItsInstances) {
  Report r;
  r.host = "gpu1";
  facts::Finding f;
  f.id = "gpu.ecc_uncorrectable";
  f.layer = facts::Layer::driver;
  f.severity = facts::Severity::error;
  r.findings = {f, f};
  facts::Facts facts;
  CheckMetrics m{&r, &facts, {{"files", 0.01}}, 0.2, 1764756000};
  std::string text = check_metrics(m);
  EXPECT_NE(text.find("gpudoctor_check_ok 0\n"), std::string::npos);
  EXPECT_NE(text.find("gpudoctor_finding{id=\"gpu.ecc_uncorrectable\",layer=\"driver\",severity=\"error\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE gpudoctor_last_run_timestamp_seconds gauge"), std::string::npos);
  EXPECT_NE(text.find("gpudoctor_probe_duration_seconds{probe=\"files\"} 0.01\n"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::render
