// The fleet report's renderers, one file per format: text for a terminal, JSON for tools, Markdown
// for a ticket, and one self-contained HTML page (no script, no external resource). Every string
// that came from a node's report (host names, messages) is untrusted: each format neutralises it
// (terminal controls, Markdown syntax, HTML markup). Pure functions of the Fleet.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include <fleet/join.hpp>

namespace gpudoctor::fleet {

inline constexpr int k_fleet_schema_version = 1;

struct FleetMeta {
  std::string time;    // ISO 8601 UTC, when the join ran
  std::string source;  // "srun on partition gpu", "12 files"
};

void render_fleet_text(const Fleet& fleet, const FleetMeta& meta, std::ostream& out);
void render_fleet_markdown(const Fleet& fleet, const FleetMeta& meta, std::ostream& out);
void render_fleet_html(const Fleet& fleet, const FleetMeta& meta, std::ostream& out);
nlohmann::json fleet_to_json(const Fleet& fleet, const FleetMeta& meta);

// Markdown text with its syntax characters escaped, on one line.
std::string markdown_escape(std::string_view s);

}  // namespace gpudoctor::fleet
