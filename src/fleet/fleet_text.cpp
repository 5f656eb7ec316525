#include <fleet/fleet_render.hpp>

#include <fmt/format.h>

#include <util/text.hpp>

namespace gpudoctor::fleet {
namespace {

std::string p(std::string_view s) { return util::printable(s); }

const char* mark(facts::Severity s) {
  return s == facts::Severity::error ? "✖" : s == facts::Severity::warning ? "!" : "·";
}

}  // namespace

void render_fleet_text(const Fleet& fleet, const FleetMeta& meta, std::ostream& out) {
  out << fmt::format("gpudoctor fleet: {} nodes: {} healthy, {} failing, {} unreachable ({}, {})\n", fleet.nodes,
                     fleet.healthy, fleet.failing, fleet.unreachable, p(meta.source), meta.time);
  if (!fleet.odd_ones_out.empty()) {
    out << "\nOdd nodes out\n";
    for (const auto& line : fleet.odd_ones_out) out << "  " << p(line) << '\n';
  }
  if (!fleet.findings.empty()) out << "\nFindings\n";
  for (const auto& f : fleet.findings) {
    out << fmt::format("{} {}  {}\n", mark(f.severity), f.id, p(f.message));
    for (const auto& e : f.evidence) out << "    " << p(e) << '\n';
    out << "    fix: " << p(f.fix) << '\n';
  }
  if (!fleet.groups.empty()) out << "\nNodes by finding\n";
  for (const auto& g : fleet.groups) {
    if (g.findings.empty()) {
      out << fmt::format("✔ {} ({}): no error or warning\n", p(g.hostlist), g.nodes.size());
      continue;
    }
    out << fmt::format("{} {} ({})\n", g.failing ? "✖" : "!", p(g.hostlist), g.nodes.size());
    for (const auto& f : g.findings) {
      out << fmt::format("    {} {}: {}\n", mark(f.severity), p(f.id), p(f.message));
      if (!f.evidence.empty()) out << "      evidence: " << p(f.evidence) << '\n';
    }
  }
  bool header = false;
  for (const auto& t : fleet.skew) {
    if (t.values.empty()) continue;
    if (!header) out << "\nAcross nodes\n";
    header = true;
    out << fmt::format("  {}{}\n", p(t.attribute), t.skewed() ? "  (differs)" : "");
    for (const auto& v : t.values) out << fmt::format("    {:<24} {} ({})\n", p(v.value), p(v.hostlist), v.nodes.size());
  }
}

std::string markdown_escape(std::string_view s) {
  std::string out;
  for (char c : util::printable(s)) {
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '#': case '~': case '!':
        out += '\\';
        out += c;
        break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      default: out += c;
    }
  }
  return out;
}

void render_fleet_markdown(const Fleet& fleet, const FleetMeta& meta, std::ostream& out) {
  auto m = [](std::string_view s) { return markdown_escape(s); };
  out << fmt::format("## gpudoctor fleet: {} nodes\n\n{} healthy, {} failing, {} unreachable. {}, {}.\n", fleet.nodes,
                     fleet.healthy, fleet.failing, fleet.unreachable, m(meta.source), meta.time);
  if (!fleet.odd_ones_out.empty()) {
    out << "\n### Odd nodes out\n\n";
    for (const auto& line : fleet.odd_ones_out) out << "- " << m(line) << '\n';
  }
  if (!fleet.findings.empty()) out << "\n### Findings\n";
  for (const auto& f : fleet.findings) {
    out << fmt::format("\n**{}** `{}`: {}\n\n", facts::to_string(f.severity), f.id, m(f.message));
    for (const auto& e : f.evidence) out << "- " << m(e) << '\n';
    out << "\nFix: " << m(f.fix) << '\n';
  }
  if (!fleet.groups.empty()) out << "\n### Nodes by finding\n\n| nodes | count | findings |\n|---|---|---|\n";
  for (const auto& g : fleet.groups) {
    std::string ids;
    for (const auto& f : g.findings) ids += (ids.empty() ? "" : "<br>") + fmt::format("{} `{}`", facts::to_string(f.severity), m(f.id));
    out << fmt::format("| {} | {} | {} |\n", m(g.hostlist), g.nodes.size(), ids.empty() ? "none" : ids);
  }
  bool header = false;
  for (const auto& t : fleet.skew) {
    if (t.values.empty()) continue;
    if (!header) out << "\n### Across nodes\n\n| what | value | nodes | count |\n|---|---|---|---|\n";
    header = true;
    for (const auto& v : t.values)
      out << fmt::format("| {}{} | {} | {} | {} |\n", m(t.attribute), t.skewed() ? " (differs)" : "", m(v.value), m(v.hostlist),
                         v.nodes.size());
  }
}

}  // namespace gpudoctor::fleet
