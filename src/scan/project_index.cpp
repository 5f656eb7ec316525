#include <scan/project_index.hpp>

#include <algorithm>

#include <util/text.hpp>

namespace gpudoctor::scan {
namespace {

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Bases that make a torch module, by their last component.
bool module_base(std::string_view base) {
  return base == "Module" || base == "LightningModule" || base == "Sequential" || base == "ModuleList" ||
         base == "ModuleDict";
}

// A top-level `def`'s body: the lines after the header up to the next line that starts at column 0
// (blank and comment lines do not end it).
std::string_view body_after(std::string_view text, std::size_t header_end) {
  std::size_t pos = header_end;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    if (!line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '#' && line[0] != '\r' && line[0] != ')') break;
    pos = eol + 1;
  }
  return text.substr(header_end, std::min(pos, text.size()) - header_end);
}

// The callee of `Name(...)` or `pkg.Name(...)` at the start of `expr`, or "".
std::string_view constructor_of(std::string_view expr) {
  std::size_t i = 0;
  while (i < expr.size() && (ident_char(expr[i]) || expr[i] == '.')) ++i;
  if (i == 0 || i >= expr.size() || expr[i] != '(') return {};
  return expr.substr(0, i);
}

}  // namespace

void ProjectIndex::add_function(std::string_view name, std::string_view body) {
  std::vector<std::string> returns;
  bool places = false;
  for (std::string_view w : {".to(", ".cuda(", "device", "load_from_checkpoint", "DataParallel", "prepare("}) {
    places = places || body.find(w) != std::string_view::npos;
  }
  // Line by line without a vector of lines: a generated function may have a million.
  for (std::size_t pos = 0; pos < body.size();) {
    std::size_t eol = body.find('\n', pos);
    if (eol == std::string_view::npos) eol = body.size();
    std::string_view t = util::trim(body.substr(pos, eol - pos));
    pos = eol + 1;
    if (!t.starts_with("return ") && t != "return") continue;
    // A builder has a return or two; a generated function with thousands is not read further (each
    // `return name` looks for the name's binding in the body).
    if (returns.size() >= 16) {
      returns.emplace_back();
      break;
    }
    std::string_view expr = util::trim(t.substr(6));
    std::string_view ctor = constructor_of(expr);
    if (ctor.empty() && !expr.empty() && std::all_of(expr.begin(), expr.end(), ident_char)) {
      // `return model` after `model = Net(cfg)` in the body.
      const std::string bound = std::string(expr) + " = ";
      for (std::size_t at = body.find(bound); at != std::string_view::npos; at = body.find(bound, at + 1)) {
        if (at > 0 && body[at - 1] != ' ' && body[at - 1] != '\t' && body[at - 1] != '\n') continue;
        std::size_t end = body.find('\n', at);
        ctor = constructor_of(util::trim(body.substr(at + bound.size(), end == std::string_view::npos ? std::string_view::npos
                                                                                                       : end - at - bound.size())));
        break;
      }
    }
    returns.emplace_back(places ? std::string_view() : ctor);
  }
  auto [it, inserted] = m_function_returns.try_emplace(std::string(name), std::move(returns));
  if (!inserted) m_ambiguous_functions.insert(std::string(name));
}

void ProjectIndex::add_source(std::string_view text) {
  if (!m_uses_gpu) {
    m_uses_gpu = text.find(".cuda(") != std::string_view::npos || text.find("\"cuda") != std::string_view::npos ||
                 text.find("'cuda") != std::string_view::npos;
  }
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    std::size_t i = 0;
    if (line.starts_with("def ") || line.starts_with("async def ")) {
      std::size_t n = line.find("def ") + 4;
      std::size_t e = n;
      while (e < line.size() && ident_char(line[e])) ++e;
      if (e > n) add_function(line.substr(n, e - n), body_after(text, std::min(pos, text.size())));
      continue;
    }
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (line.substr(i, 6) != "class ") continue;
    i += 6;
    while (i < line.size() && line[i] == ' ') ++i;
    std::size_t name_start = i;
    while (i < line.size() && ident_char(line[i])) ++i;
    std::string name(line.substr(name_start, i - name_start));
    if (name.empty()) continue;
    std::vector<std::string> bases;
    if (i < line.size() && line[i] == '(') {
      // Bases on the header line: `(nn.Module)`, `(Base, metaclass=ABCMeta)`. A header wrapped over
      // several lines keeps what its first line shows.
      auto close = line.find(')', i);
      auto inside = line.substr(i + 1, close == std::string_view::npos ? std::string_view::npos : close - i - 1);
      for (auto part : util::split(inside, ',')) {
        auto b = util::trim(part);
        if (b.empty() || b.find('=') != std::string_view::npos) continue;
        auto dot = b.rfind('.');
        bases.emplace_back(dot == std::string_view::npos ? b : b.substr(dot + 1));
      }
    }
    auto [it, inserted] = m_bases.try_emplace(name, std::move(bases));
    if (!inserted) {
      // Defined twice: a module only if both say so; decided in finish().
      for (auto& b : bases) it->second.push_back(b);
      m_ambiguous.insert(name);
    }
  }
}

void ProjectIndex::finish() {
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, bases] : m_bases) {
      if (m_modules.count(name)) continue;
      for (const auto& b : bases) {
        if (module_base(b) || (b != name && m_modules.count(b))) {
          m_modules.insert(name);
          grew = true;
          break;
        }
      }
    }
  }
  // Two classes of one name where one is no module: unknown.
  for (const auto& name : m_ambiguous) {
    bool all = true;
    for (const auto& b : m_bases[name]) all = all && (module_base(b) || m_modules.count(b));
    if (!all) m_modules.erase(name);
  }
  // Builders: every return constructs a module class of the project or of torch.nn.
  for (const auto& [name, returns] : m_function_returns) {
    if (returns.empty() || m_ambiguous_functions.count(name)) continue;
    bool all = true;
    for (const auto& r : returns) {
      auto dot = r.rfind('.');
      std::string_view last = dot == std::string::npos ? std::string_view(r) : std::string_view(r).substr(dot + 1);
      const bool torch_nn = (r.starts_with("nn.") || r.starts_with("torch.nn.")) && !last.empty() && last[0] >= 'A' &&
                            last[0] <= 'Z' && !last.ends_with("Loss");
      all = all && !r.empty() && (torch_nn || m_modules.count(std::string(last)) > 0);
    }
    if (all) m_builders.insert(name);
  }
}

bool ProjectIndex::is_module_class(std::string_view name) const { return m_modules.count(std::string(name)) > 0; }

}  // namespace gpudoctor::scan
