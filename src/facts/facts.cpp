#include <facts/facts.hpp>

#include <util/json_number.hpp>

namespace gpudoctor::facts {

GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(MetaFacts, hostname, os_pretty_name, root, from_text)

void to_json(nlohmann::json& j, const Facts& f) {
  j = nlohmann::json{{"schema_version", k_facts_schema_version},
                     {"meta", f.meta},
                     {"environment", f.environment},
                     {"driver", f.driver},
                     {"framework", f.framework}};
}

void from_json(const nlohmann::json& j, Facts& f) {
  if (!j.is_object()) throw nlohmann::json::type_error::create(302, "facts must be a JSON object", &j);
  int version = util::json_number_or(j, "schema_version", 0);
  if (version != k_facts_schema_version) {
    throw nlohmann::json::other_error::create(
        501, "unsupported facts schema_version " + std::to_string(version), &j);
  }
  Facts d;
  f.meta = j.value("meta", d.meta);
  f.environment = j.value("environment", d.environment);
  f.driver = j.value("driver", d.driver);
  f.framework = j.value("framework", d.framework);
}

}  // namespace gpudoctor::facts
