// One JSON object: {schema_version, tool, tool_version, command, host, time, root, summary,
// findings: [{id, layer, severity, message, evidence, fix, docs, location?, explained_by?}], notes,
// facts}. The shape is a contract: fleet tooling joins these from many nodes.
#pragma once

#include <render/report.hpp>

namespace gpudoctor::render {

class JsonRenderer final : public Renderer {
 public:
  void render(const Report& report, std::ostream& out) const override;
};

nlohmann::json finding_to_json(const facts::Finding& f);
facts::Finding finding_from_json(const nlohmann::json& j);
nlohmann::json report_to_json(const Report& report);

}  // namespace gpudoctor::render
