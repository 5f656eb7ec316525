#include <fleet/fleet_render.hpp>

#include <fmt/format.h>

#include <render/html_renderer.hpp>
#include <util/text.hpp>

namespace gpudoctor::fleet {
namespace {

std::string h(std::string_view s) { return render::html_escape(util::sanitize_utf8(s)); }

const char* color(facts::Severity s) {
  return s == facts::Severity::error ? "#c0392b" : s == facts::Severity::warning ? "#b9770e" : "#566573";
}

constexpr std::string_view k_style = R"(body{font-family:system-ui,sans-serif;margin:2em;max-width:70em;color:#1b2631}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
.counts span{display:inline-block;margin-right:1.2em;padding:.2em .6em;border-radius:.3em;background:#eaecee}
.counts .failing{background:#f5b7b1}.counts .unreachable{background:#fad7a0}.counts .healthy{background:#abebc6}
.finding{border-left:.35em solid;padding:.3em .8em;margin:.8em 0;background:#fbfcfc}
.finding .id{font-family:monospace;font-weight:bold}.fix{color:#1e8449}
table{border-collapse:collapse}td,th{border:1px solid #d5d8dc;padding:.25em .6em;text-align:left;vertical-align:top}
code,.mono{font-family:monospace}.differs{color:#b9770e;font-weight:bold}
)";

}  // namespace

void render_fleet_html(const Fleet& fleet, const FleetMeta& meta, std::ostream& out) {
  std::string s;
  s += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  s += fmt::format("<title>gpudoctor fleet: {} nodes</title>\n<style>{}</style></head><body>\n", fleet.nodes, k_style);
  s += fmt::format("<h1>gpudoctor fleet: {} nodes</h1>\n<p>{}, {}</p>\n", fleet.nodes, h(meta.source), h(meta.time));
  s += fmt::format(
      "<p class=\"counts\"><span class=\"healthy\">{} healthy</span><span class=\"failing\">{} failing</span>"
      "<span class=\"unreachable\">{} unreachable</span></p>\n",
      fleet.healthy, fleet.failing, fleet.unreachable);
  if (!fleet.odd_ones_out.empty()) {
    s += "<h2>Odd nodes out</h2>\n<ul id=\"odd\">\n";
    for (const auto& line : fleet.odd_ones_out) s += "<li class=\"mono\">" + h(line) + "</li>\n";
    s += "</ul>\n";
  }
  if (!fleet.findings.empty()) s += "<h2>Findings</h2>\n";
  for (const auto& f : fleet.findings) {
    s += fmt::format("<div class=\"finding\" id=\"{}\" style=\"border-color:{}\"><span class=\"id\">{}</span> ({})<p>{}</p>\n",
                     h(f.id), color(f.severity), h(f.id), facts::to_string(f.severity), h(f.message));
    if (!f.evidence.empty()) {
      s += "<ul>";
      for (const auto& e : f.evidence) s += "<li>" + h(e) + "</li>";
      s += "</ul>\n";
    }
    s += "<p class=\"fix\">Fix: " + h(f.fix) + "</p></div>\n";
  }
  if (!fleet.groups.empty())
    s += "<h2>Nodes by finding</h2>\n<table id=\"groups\"><tr><th>nodes</th><th>count</th><th>findings</th></tr>\n";
  for (const auto& g : fleet.groups) {
    std::string fs;
    for (const auto& f : g.findings)
      fs += fmt::format("<div><span style=\"color:{}\">{}</span> <code>{}</code>: {}</div>", color(f.severity),
                        facts::to_string(f.severity), h(f.id), h(f.message));
    s += fmt::format("<tr class=\"{}\"><td class=\"mono\">{}</td><td>{}</td><td>{}</td></tr>\n",
                     g.failing ? "failing" : g.findings.empty() ? "healthy" : "warning", h(g.hostlist), g.nodes.size(),
                     fs.empty() ? "no error or warning" : fs);
  }
  if (!fleet.groups.empty()) s += "</table>\n";
  bool header = false;
  for (const auto& t : fleet.skew) {
    if (t.values.empty()) continue;
    if (!header) s += "<h2>Across nodes</h2>\n<table id=\"skew\"><tr><th>what</th><th>value</th><th>nodes</th><th>count</th></tr>\n";
    header = true;
    for (const auto& v : t.values)
      s += fmt::format("<tr><td{}>{}</td><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td>{}</td></tr>\n",
                       t.skewed() ? " class=\"differs\"" : "", h(t.attribute), h(v.value), h(v.hostlist), v.nodes.size());
  }
  if (header) s += "</table>\n";
  s += "</body></html>\n";
  out << s;
}

}  // namespace gpudoctor::fleet
