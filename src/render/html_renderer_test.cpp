#include <render/html_renderer.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace gpudoctor::render {
namespace {

Report run_report() {
  Report r;
  r.command = "run";
  r.host = "node7";
  r.time = "2026-12-02T14:00:00Z";
  facts::Finding f;
  f.id = "run.input_bound";
  f.layer = facts::Layer::run;
  f.severity = facts::Severity::warning;
  f.message = "GPU 0 held 9.2 GiB, but busy averaged 4 % <while> the loader ran";
  f.fix = "DataLoader(num_workers=8)";
  f.explained_by = {"log.lightning_few_workers"};
  r.findings.push_back(f);
  nlohmann::json samples = nlohmann::json::array();
  for (int i = 0; i < 5; ++i) {
    samples.push_back({{"t", 0.5 * i},
                       {"processes", {{{"pid", 100}, {"name", "python"}, {"cpu_percent", i == 0 ? nlohmann::json{{"unknown", "first"}} : nlohmann::json(99.0)}}}},
                       {"gpus", {{{"index", 0}, {"busy_percent", 4.0}, {"memory_used_bytes", 9.2 * (1u << 30)}}}}});
  }
  r.facts = {{"command", {"python", "train.py"}},
             {"duration_s", 2.5},
             {"interval_s", 0.5},
             {"gpu_source", "NVML"},
             {"samples", samples},
             {"events", {{{"t", 1.2}, {"kind", "log"}, {"id", "log.cuda_oom"}, {"severity", "error"}, {"text", "CUDA out of memory"}}}}};
  return r;
}

TEST(HtmlRenderer, OnePageWithTheVerdictAndAnSvgChart) {
  std::ostringstream out;
  HtmlRenderer().render(run_report(), out);
  std::string html = out.str();
  EXPECT_NE(html.find("<!DOCTYPE html>"), std::string::npos);
  EXPECT_NE(html.find("run.input_bound"), std::string::npos);
  EXPECT_NE(html.find("&lt;while&gt;"), std::string::npos) << "text is escaped";
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("data-panel=\"GPU busy"), std::string::npos);
  EXPECT_NE(html.find("data-series=\"GPU 0\""), std::string::npos);
  EXPECT_NE(html.find("data-series=\"python 100\""), std::string::npos);
  EXPECT_NE(html.find("class=\"event\""), std::string::npos) << "the OOM event is marked";
  // Self-contained: nothing fetched from anywhere.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
}

TEST(HtmlRenderer, UnreportedGpuFiguresAreSaidNotDrawnAsZero) {
  Report r = run_report();
  for (auto& s : r.facts["samples"]) s["gpus"] = nlohmann::json::array();
  r.facts["gpu_source"] = "NVML is not available";
  std::ostringstream out;
  HtmlRenderer().render(r, out);
  std::string html = out.str();
  EXPECT_NE(html.find("GPU utilisation was not reported"), std::string::npos);
  EXPECT_NE(html.find("GPU figures: NVML is not available"), std::string::npos) << "the reason is on the page";
  EXPECT_EQ(html.find("data-series=\"GPU 0\""), std::string::npos);
}

TEST(HtmlRenderer, Escapes) { EXPECT_EQ(html_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;"); }

}  // namespace
}  // namespace gpudoctor::render
