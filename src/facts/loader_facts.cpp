#include <facts/loader_facts.hpp>

#include <array>
#include <utility>

namespace gpudoctor::facts {
namespace {

constexpr std::array<std::pair<SearchRule, const char*>, 8> k_rule_names = {{
    {SearchRule::already_loaded, "already_loaded"},
    {SearchRule::direct_path, "direct_path"},
    {SearchRule::rpath, "rpath"},
    {SearchRule::ld_library_path, "ld_library_path"},
    {SearchRule::runpath, "runpath"},
    {SearchRule::cache, "cache"},
    {SearchRule::default_dirs, "default_dirs"},
    {SearchRule::not_found, "not_found"},
}};

}  // namespace

const char* to_string(SearchRule rule) {
  for (const auto& [r, name] : k_rule_names) {
    if (r == rule) return name;
  }
  return "not_found";
}

void to_json(nlohmann::json& j, const SearchRule& r) { j = to_string(r); }

void from_json(const nlohmann::json& j, SearchRule& r) {
  r = SearchRule::not_found;
  if (!j.is_string()) return;
  for (const auto& [rule, name] : k_rule_names) {
    if (j.get_ref<const std::string&>() == name) r = rule;
  }
}

void to_json(nlohmann::json& j, const TriedPath& t) {
  j = nlohmann::json{{"path", t.path}, {"rule", t.rule}, {"rejected", t.rejected}};
}

void from_json(const nlohmann::json& j, TriedPath& t) {
  TriedPath d;
  t.path = j.value("path", d.path);
  t.rule = j.value("rule", d.rule);
  t.rejected = j.value("rejected", d.rejected);
}

void to_json(nlohmann::json& j, const Resolution& r) {
  j = nlohmann::json{{"soname", r.soname}, {"requested_by", r.requested_by}, {"depth", r.depth},
                     {"path", r.path},     {"rule", r.rule},                 {"rule_detail", r.rule_detail},
                     {"tried", r.tried}};
}

void from_json(const nlohmann::json& j, Resolution& r) {
  Resolution d;
  r.soname = j.value("soname", d.soname);
  r.requested_by = j.value("requested_by", d.requested_by);
  r.depth = j.value("depth", d.depth);
  r.path = j.value("path", d.path);
  r.rule = j.value("rule", d.rule);
  r.rule_detail = j.value("rule_detail", d.rule_detail);
  r.tried = j.value("tried", d.tried);
}

}  // namespace gpudoctor::facts
