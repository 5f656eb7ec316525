#include <scan/project_index.hpp>

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

}  // namespace

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
}

bool ProjectIndex::is_module_class(std::string_view name) const { return m_modules.count(std::string(name)) > 0; }

}  // namespace gpudoctor::scan
