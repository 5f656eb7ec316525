#include <watch/signature.hpp>

#include <fmt/format.h>

#include <stdexcept>

#include <data/tsv.hpp>
#include <util/text.hpp>

namespace gpudoctor::watch {
namespace {

constexpr std::string_view k_table = "signatures.tsv";

facts::Severity parse_severity(std::string_view s, std::size_t row) {
  for (auto v : {facts::Severity::error, facts::Severity::warning, facts::Severity::info}) {
    if (s == facts::to_string(v)) return v;
  }
  throw std::runtime_error(fmt::format("data/{} row {}: unknown severity '{}'", k_table, row + 1, s));
}

facts::Layer parse_layer(std::string_view s, std::size_t row) {
  for (auto v : {facts::Layer::environment, facts::Layer::driver, facts::Layer::framework, facts::Layer::code,
                 facts::Layer::run}) {
    if (s == facts::to_string(v)) return v;
  }
  throw std::runtime_error(fmt::format("data/{} row {}: unknown layer '{}'", k_table, row + 1, s));
}

// "-" marks an empty field: data/ tables have no empty fields, so a reviewer sees the omission.
std::string field(const data::Table& t, std::size_t row, std::string_view column) {
  const std::string& v = t.at(row, column);
  return v == "-" ? std::string() : v;
}

std::vector<Signature> load() {
  const data::Table& t = data::table(k_table);
  std::vector<Signature> out;
  out.reserve(t.size());
  for (std::size_t r = 0; r < t.size(); ++r) {
    Signature s;
    s.id = t.at(r, "id");
    s.severity = parse_severity(t.at(r, "severity"), r);
    s.layer = parse_layer(t.at(r, "layer"), r);
    auto rank = util::parse_int(t.at(r, "rank"));
    if (!rank) throw std::runtime_error(fmt::format("data/{} row {}: rank is not a number", k_table, r + 1));
    s.rank = static_cast<int>(*rank);
    const std::string explains = field(t, r, "explains");
    for (auto e : util::split(explains, ',')) {
      if (!util::trim(e).empty()) s.explains.emplace_back(util::trim(e));
    }
    s.title = field(t, r, "title");
    s.pattern = t.at(r, "pattern");
    s.cause = t.at(r, "cause");
    s.fix = t.at(r, "fix");
    s.source = t.at(r, "source");
    s.example = t.at(r, "example");
    out.push_back(std::move(s));
  }
  return out;
}

const std::string* find_capture(std::string_view name, const std::vector<std::pair<std::string, std::string>>& caps) {
  for (const auto& [k, v] : caps) {
    if (k == name && !v.empty()) return &v;
  }
  return nullptr;
}

enum class Placeholders { substitute, describe };

// Renders `text` (no optional segments inside). Returns false if a placeholder had no capture.
bool render_plain(std::string_view text, const std::vector<std::pair<std::string, std::string>>& caps,
                  Placeholders mode, std::string& out) {
  bool complete = true;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t open = text.find('{', i);
    std::size_t close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, open - i));
    std::string_view name = text.substr(open + 1, close - open - 1);
    if (mode == Placeholders::describe) {
      out.append("<").append(name).append(">");
    } else if (const std::string* v = find_capture(name, caps)) {
      out.append(*v);
    } else {
      out.append("?");
      complete = false;
    }
    i = close + 1;
  }
  return complete;
}

std::string render(std::string_view text, const std::vector<std::pair<std::string, std::string>>& caps,
                   Placeholders mode) {
  // A "[...]" holding a placeholder is optional: kept (without the brackets) only when every
  // capture inside it is known. Brackets without a placeholder are literal ("jax[cuda12]").
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t open = text.find('[', i);
    std::size_t close = open == std::string_view::npos ? open : text.find(']', open);
    if (close == std::string_view::npos) {
      render_plain(text.substr(i), caps, mode, out);
      break;
    }
    render_plain(text.substr(i, open - i), caps, mode, out);
    std::string_view inner = text.substr(open + 1, close - open - 1);
    if (inner.find('{') == std::string_view::npos) {
      out.append(text.substr(open, close - open + 1));
    } else if (mode == Placeholders::substitute) {
      std::string segment;
      if (render_plain(inner, caps, mode, segment)) out.append(segment);
    }  // describe mode leaves optional segments out: the catalogue states the general case
    i = close + 1;
  }
  return out;
}

std::string_view shorten(std::string_view s, std::size_t max) { return s.size() <= max ? s : s.substr(0, max); }

}  // namespace

std::span<const Signature> signatures() {
  static const std::vector<Signature> k_all = load();
  return k_all;
}

std::string expand(std::string_view text, const std::vector<std::pair<std::string, std::string>>& captures) {
  return render(text, captures, Placeholders::substitute);
}

std::vector<facts::FindingInfo> signature_infos() {
  struct Texts {
    std::string trigger;
    std::string fix;
  };
  // Built once: FindingInfo holds views, so the rendered texts need a home for the program's life.
  static const std::vector<std::pair<const Signature*, Texts>> k_entries = [] {
    std::vector<std::pair<const Signature*, Texts>> entries;
    for (const Signature& s : signatures()) {
      bool seen = false;
      for (const auto& e : entries) seen = seen || e.first->id == s.id;
      if (seen) continue;
      std::string example(shorten(s.example, 160));
      if (example.size() < s.example.size()) example += " ...";
      Texts t{fmt::format("A log line such as `` {} ``", example), render(s.fix, {}, Placeholders::describe)};
      entries.emplace_back(&s, std::move(t));
    }
    return entries;
  }();
  std::vector<facts::FindingInfo> out;
  for (const auto& [s, t] : k_entries) {
    out.push_back(facts::FindingInfo{s->id, s->layer, s->severity, s->title, t.trigger, t.fix});
  }
  return out;
}

}  // namespace gpudoctor::watch
