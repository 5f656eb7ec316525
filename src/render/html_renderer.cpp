#include <render/html_renderer.hpp>

#include <util/json_number.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

namespace gpudoctor::render {
namespace {

using nlohmann::json;

constexpr int k_width = 1100;
constexpr int k_height = 190;
constexpr int k_left = 64;
constexpr int k_right = 16;
constexpr int k_top = 26;
constexpr int k_bottom = 28;
// The processes drawn in the CPU panel: the busiest ones; a DataLoader with 64 workers would
// otherwise be an unreadable tangle.
constexpr std::size_t k_max_process_series = 8;

constexpr std::array<const char*, 10> k_palette = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                                   "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};

// A Known<T> in its JSON form: the number, or nullopt for {"unknown": why} and anything else.
std::optional<double> number(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return std::nullopt;
  const json& v = j.at(key);
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

std::string unknown_why(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return "not recorded";
  const json& v = j.at(key);
  if (v.is_object() && v.contains("unknown") && v["unknown"].is_string()) return v["unknown"].get<std::string>();
  return {};
}

struct Point {
  double t;
  std::optional<double> y;  // nullopt: not reported at this sample, drawn as a gap
};

struct Series {
  std::string label;
  std::vector<Point> points;
};

struct Mark {
  double t;
  std::string label;
  std::string color;
};

struct Panel {
  std::string title;
  std::string unit;  // "%", "GiB"
  std::vector<Series> series;
  std::string empty_note;  // shown instead of lines when no series has any value
};

std::string fmt_num(double v) { return v >= 100 || v == std::floor(v) ? fmt::format("{:.0f}", v) : fmt::format("{:.1f}", v); }

// A round step for about `n` ticks over [0, range].
double tick_step(double range, int n) {
  if (range <= 0) return 1;
  double raw = range / n;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

std::string svg_panel(const Panel& p, double t_max, const std::vector<Mark>& marks) {
  const double plot_w = k_width - k_left - k_right;
  const double plot_h = k_height - k_top - k_bottom;
  double y_max = p.unit == "%" ? 100.0 : 0.0;
  bool any = false;
  for (const auto& s : p.series) {
    for (const auto& pt : s.points) {
      if (!pt.y) continue;
      any = true;
      y_max = std::max(y_max, *pt.y);
    }
  }
  if (y_max <= 0) y_max = 1;
  y_max *= p.unit == "%" && y_max <= 100 ? 1.0 : 1.08;
  if (t_max <= 0) t_max = 1;
  auto x = [&](double t) { return k_left + plot_w * t / t_max; };
  auto y = [&](double v) { return k_top + plot_h * (1.0 - v / y_max); };

  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"panel\" data-panel=\"{}\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n",
      html_escape(p.title), k_width, k_height, k_width, k_height, html_escape(p.title));
  out += fmt::format("<text x=\"{}\" y=\"16\" class=\"title\">{}</text>\n", k_left, html_escape(p.title));
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"plot\"/>\n", k_left, k_top, plot_w, plot_h);
  double ys = tick_step(y_max, 4);
  for (double v = 0; v <= y_max + 1e-9; v += ys) {
    out += fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" class=\"grid\"/>", k_left, k_left + plot_w, y(v), y(v));
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"ylabel\">{} {}</text>\n", k_left - 6, y(v) + 4, fmt_num(v), p.unit);
  }
  double xs = tick_step(t_max, 8);
  for (double t = 0; t <= t_max + 1e-9; t += xs) {
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" class=\"xlabel\">{} s</text>", x(t), k_height - 8, fmt_num(t));
  }
  out += '\n';
  for (const auto& m : marks) {
    out += fmt::format("<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" class=\"event\"><title>{}</title></line>\n",
                       x(m.t), x(m.t), k_top, k_top + plot_h, m.color, html_escape(m.label));
  }
  if (!any) {
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"empty\">{}</text>\n", k_left + plot_w / 2,
                       k_top + plot_h / 2, html_escape(p.empty_note));
  }
  double legend_x = k_left + plot_w;
  for (std::size_t i = p.series.size(); i-- > 0;) {
    const auto& s = p.series[i];
    const char* color = k_palette[i % k_palette.size()];
    // Each run of reported samples is one polyline; an unreported sample breaks the line.
    std::string pts;
    auto flush = [&] {
      if (pts.empty()) return;
      out += fmt::format("<polyline class=\"series\" data-series=\"{}\" stroke=\"{}\" points=\"{}\"/>\n",
                         html_escape(s.label), color, pts);
      pts.clear();
    };
    for (const auto& pt : s.points) {
      if (!pt.y) {
        flush();
        continue;
      }
      pts += fmt::format("{:.1f},{:.1f} ", x(pt.t), y(*pt.y));
    }
    flush();
    double w = 12.0 + 7.0 * static_cast<double>(s.label.size());
    legend_x -= w + 10;
    out += fmt::format("<rect x=\"{:.1f}\" y=\"7\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1f}\" y=\"16\" class=\"legend\">{}</text>\n",
                       legend_x, color, legend_x + 14, html_escape(s.label));
  }
  out += "</svg>\n";
  return out;
}

const char* severity_color(std::string_view severity) {
  if (severity == "error") return "#c62828";
  if (severity == "warning") return "#b26a00";
  return "#1565c0";
}

std::string finding_html(const facts::Finding& f, bool is_verdict) {
  const char* sev = facts::to_string(f.severity);
  std::string out = fmt::format("<section class=\"finding{}\" id=\"{}\" style=\"border-left-color:{}\">\n",
                                is_verdict ? " verdict" : "", html_escape(f.id), severity_color(sev));
  out += fmt::format("<h3><span class=\"sev\" style=\"background:{}\">{}</span> <code>{}</code> <span class=\"layer\">{} layer</span></h3>\n",
                     severity_color(sev), sev, html_escape(f.id), facts::to_string(f.layer));
  out += fmt::format("<p class=\"message\">{}</p>\n", html_escape(f.message));
  if (!f.evidence.empty()) {
    out += "<ul class=\"evidence\">";
    for (const auto& e : f.evidence) out += "<li>" + html_escape(e) + "</li>";
    out += "</ul>\n";
  }
  if (!f.explained_by.empty()) {
    out += "<p class=\"because\">Follows from: ";
    for (std::size_t i = 0; i < f.explained_by.size(); ++i) {
      out += fmt::format("{}<a href=\"#{}\"><code>{}</code></a>", i ? ", " : "", html_escape(f.explained_by[i]),
                         html_escape(f.explained_by[i]));
    }
    out += "</p>\n";
  }
  if (!f.fix.empty()) out += "<p class=\"fix\"><b>Fix:</b> " + html_escape(f.fix) + "</p>\n";
  out += "</section>\n";
  return out;
}

constexpr const char* k_style = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1120px;color:#222;background:#fff}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
h3{font-size:15px;margin:0 0 6px} .meta{color:#666;font-size:13px} code{font-family:ui-monospace,monospace;font-size:13px}
.finding{border-left:5px solid #888;background:#fafafa;padding:10px 14px;margin:10px 0}
.verdict{background:#fff7f0;font-size:15px} .verdict .message{font-size:16px;font-weight:600}
.sev{color:#fff;border-radius:3px;padding:1px 6px;font-size:12px;text-transform:uppercase}
.layer{color:#666;font-weight:normal;font-size:13px} .evidence{color:#444;font-size:13px;margin:4px 0}
.fix{margin:6px 0 0} .because{font-size:13px;margin:4px 0}
svg.panel{display:block;margin:6px 0 14px;font-size:12px}
svg .title{font-weight:600;font-size:13px;fill:#222} svg .plot{fill:#fcfcfc;stroke:#bbb}
svg .grid{stroke:#e6e6e6} svg .ylabel{text-anchor:end;fill:#555} svg .xlabel{text-anchor:middle;fill:#555}
svg .series{fill:none;stroke-width:1.8} svg .event{stroke-width:1.5;stroke-dasharray:4 3}
svg .empty{text-anchor:middle;fill:#888;font-style:italic} svg .legend{fill:#333}
table{border-collapse:collapse;font-size:13px} td,th{border-bottom:1px solid #eee;padding:3px 8px;text-align:left;vertical-align:top}
.notes{color:#555;font-size:13px}
)";

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

void HtmlRenderer::render(const Report& report, std::ostream& out) const {
  const json& tl = report.facts.is_object() ? report.facts : json::object();
  const json samples = tl.value("samples", json::array());
  const json events = tl.value("events", json::array());
  std::string command;
  for (const auto& a : tl.value("command", std::vector<std::string>{})) command += (command.empty() ? "" : " ") + a;
  double t_max = tl.value("duration_s", 0.0);
  for (const auto& s : samples) t_max = std::max(t_max, s.value("t", 0.0));

  // Per-GPU and per-process series, keyed so that a process appearing late gets gaps before it.
  std::map<int, Series> busy, memory;
  std::map<int, Series> cpu;
  std::map<int, double> cpu_total;
  std::string busy_why;
  for (const auto& s : samples) {
    double t = s.value("t", 0.0);
    for (const auto& g : s.value("gpus", json::array())) {
      int index = util::json_number_or(g, "index", 0);
      auto& b = busy[index];
      b.label = fmt::format("GPU {}", index);
      b.points.push_back({t, number(g, "busy_percent")});
      if (busy_why.empty() && !number(g, "busy_percent")) busy_why = unknown_why(g, "busy_percent");
      auto& m = memory[index];
      m.label = fmt::format("GPU {}", index);
      auto used = number(g, "memory_used_bytes");
      m.points.push_back({t, used ? std::optional<double>(*used / double(1u << 30)) : std::nullopt});
    }
    for (const auto& p : s.value("processes", json::array())) {
      int pid = util::json_number_or(p, "pid", 0);
      auto& c = cpu[pid];
      if (c.label.empty()) c.label = fmt::format("{} {}", p.value("name", "?"), pid);
      auto v = number(p, "cpu_percent");
      c.points.push_back({t, v});
      cpu_total[pid] += v.value_or(0);
    }
  }
  const std::string gpu_source = tl.value("gpu_source", "");
  // The reason is in the page's header ("GPU figures: ..."); a long one would overflow the plot.
  std::string no_gpu_note = "GPU utilisation was not reported (see \"GPU figures\" above): unknown, not 0 %";
  Panel busy_panel{"GPU busy (NVML utilization.gpu)", "%", {}, no_gpu_note};
  for (auto& [i, s] : busy) busy_panel.series.push_back(std::move(s));
  Panel mem_panel{"GPU memory used", "GiB", {}, "GPU memory was not reported (see \"GPU figures\" above)"};
  for (auto& [i, s] : memory) mem_panel.series.push_back(std::move(s));
  Panel cpu_panel{"CPU per process (% of one core)", "%", {}, "no CPU samples (the run ended before a second sample)"};
  std::vector<std::pair<double, int>> order;
  for (const auto& [pid, total] : cpu_total) order.push_back({-total, pid});
  std::sort(order.begin(), order.end());
  for (std::size_t i = 0; i < order.size() && i < k_max_process_series; ++i) cpu_panel.series.push_back(cpu[order[i].second]);

  // Processes that mapped GPU libraries / held GPU devices: what /proc shows without NVML.
  Series with_libs{"mapped GPU libraries", {}}, with_devices{"held a GPU device", {}};
  for (const auto& s : samples) {
    double t = s.value("t", 0.0);
    int libs = 0, devs = 0;
    for (const auto& p : s.value("processes", json::array())) {
      libs += !p.value("libraries", json::array()).empty();
      devs += !p.value("devices", json::array()).empty();
    }
    with_libs.points.push_back({t, double(libs)});
    with_devices.points.push_back({t, double(devs)});
  }
  Panel proc_panel{"Processes using the GPU stack (/proc/PID/maps, /proc/PID/fd)", "proc", {with_devices, with_libs},
                   "no samples"};

  std::vector<Mark> marks;
  for (const auto& e : events) {
    std::string sev = e.value("severity", "info");
    marks.push_back({e.value("t", 0.0), e.value("id", "") + ": " + e.value("text", ""), severity_color(sev)});
  }

  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>gpudoctor "
      << html_escape(report.command) << ": " << html_escape(command) << "</title>\n<style>" << k_style
      << "</style></head>\n<body>\n";
  // A long inline script would push everything below the fold: the heading shows its start.
  constexpr std::size_t k_heading_chars = 120;
  std::string shown = command.size() > k_heading_chars ? command.substr(0, k_heading_chars) + " ..." : command;
  out << "<h1>gpudoctor " << html_escape(report.command) << ": <code title=\"" << html_escape(command) << "\">"
      << html_escape(shown) << "</code></h1>\n";
  std::string exit_text;
  if (auto st = number(tl, "exit_status")) exit_text = fmt::format(" · exit status {:.0f}", *st);
  out << "<p class=\"meta\">" << html_escape(report.host) << " · " << html_escape(report.time)
      << fmt::format(" · {:.1f} s · {} samples every {:.2f} s", tl.value("duration_s", 0.0), samples.size(),
                     tl.value("interval_s", 0.5))
      << html_escape(exit_text) << " · GPU figures: " << html_escape(gpu_source.empty() ? "none" : gpu_source)
      << "</p>\n";

  out << "<h2>Verdict</h2>\n";
  const bool has_verdict = !report.findings.empty() && report.findings.front().layer == facts::Layer::run;
  if (has_verdict) {
    out << finding_html(report.findings.front(), true);
  } else {
    out << "<p>No verdict could be reached.</p>\n";
  }
  if (!report.notes.empty()) {
    out << "<div class=\"notes\">";
    for (const auto& n : report.notes) out << "<p>Note: " << html_escape(n) << "</p>";
    out << "</div>\n";
  }
  // The chart right below the verdict: the evidence a reader looks at first.
  out << "<h2>Timeline</h2>\n<div id=\"timeline\">\n";
  out << svg_panel(busy_panel, t_max, marks) << svg_panel(mem_panel, t_max, marks) << svg_panel(cpu_panel, t_max, marks)
      << svg_panel(proc_panel, t_max, marks);
  out << "</div>\n";
  for (std::size_t i = has_verdict ? 1 : 0; i < report.findings.size(); ++i) {
    if (i == (has_verdict ? 1u : 0u)) out << "<h2>" << (has_verdict ? "Findings that explain it" : "Findings") << "</h2>\n";
    out << finding_html(report.findings[i], false);
  }
  if (!events.empty()) {
    out << "<h2>Events</h2>\n<table><tr><th>time</th><th>id</th><th>severity</th><th>text</th></tr>\n";
    for (const auto& e : events) {
      out << fmt::format("<tr><td>{:.1f} s</td><td><code>{}</code></td><td>{}</td><td><code>{}</code></td></tr>\n",
                         e.value("t", 0.0), html_escape(e.value("id", "")), html_escape(e.value("severity", "")),
                         html_escape(e.value("text", "")));
    }
    out << "</table>\n";
  }
  out << "</body></html>\n";
}

}  // namespace gpudoctor::render
