#include <scan/imports.hpp>

namespace gpudoctor::scan {
namespace {

std::string compact(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\\') out += c;
  }
  return out;
}

}  // namespace

bool starts_with_package(std::string_view qualified, std::string_view package) {
  if (qualified.size() < package.size() || qualified.compare(0, package.size(), package) != 0) return false;
  return qualified.size() == package.size() || qualified[package.size()] == '.';
}

bool is_torch_function(std::string_view qualified) {
  return starts_with_package(qualified, "torch") && qualified.size() > 6 &&
         qualified.find('.', 6) == std::string_view::npos;
}

void ImportTable::bind(std::string_view local, std::string qualified) {
  auto [it, inserted] = m_names.try_emplace(std::string(local), qualified);
  if (!inserted && !m_fallback) it->second = std::move(qualified);
}

void ImportTable::add(Node statement) {
  // A compatibility fallback (`try: from torch.amp import GradScaler` / `except ImportError: from
  // torch.cuda.amp import GradScaler`, or the else branch of a version test) names what runs only
  // where the first import fails: the name keeps what it was first imported as.
  m_fallback = false;
  for (Node p = statement.parent(); p.valid() && !p.is(NodeKind::function_definition) && !p.is(NodeKind::module);
       p = p.parent()) {
    if (p.is(NodeKind::except_clause) || p.is(NodeKind::else_clause) || p.is(NodeKind::elif_clause)) {
      m_fallback = true;
      break;
    }
  }
  if (statement.is(NodeKind::import_statement)) {
    for (std::uint32_t i = 0; i < statement.named_count(); ++i) {
      Node n = statement.named(i);
      if (n.is(NodeKind::dotted_name)) {
        // `import torch.nn` binds `torch`.
        std::string full = compact(n.text());
        std::string top = full.substr(0, full.find('.'));
        bind(top, top);
      } else if (n.is(NodeKind::aliased_import)) {
        Node name = n.field(Field::name), alias = n.field(Field::alias);
        if (name.valid() && alias.valid()) bind(alias.text(), compact(name.text()));
      }
    }
    return;
  }
  if (!statement.is(NodeKind::import_from_statement)) return;
  Node module = statement.field(Field::module_name);
  if (!module.is(NodeKind::dotted_name)) return;  // relative import: the project's own code
  std::string base = compact(module.text());
  for (std::uint32_t i = 0; i < statement.named_count(); ++i) {
    Node n = statement.named(i);
    if (n == module) continue;
    if (n.is(NodeKind::dotted_name)) {
      std::string name = compact(n.text());
      bind(name, base + "." + name);
    } else if (n.is(NodeKind::aliased_import)) {
      Node name = n.field(Field::name), alias = n.field(Field::alias);
      if (name.valid() && alias.valid()) bind(alias.text(), base + "." + compact(name.text()));
    }
  }
}

std::string ImportTable::qualify(std::string_view dotted) const {
  std::string d = compact(dotted);
  auto dot = d.find('.');
  auto it = m_names.find(d.substr(0, dot));
  if (it == m_names.end()) return d;
  return dot == std::string::npos ? it->second : it->second + d.substr(dot);
}

bool ImportTable::imports(std::string_view package) const {
  for (const auto& [local, qualified] : m_names) {
    if (starts_with_package(qualified, package)) return true;
  }
  return false;
}

}  // namespace gpudoctor::scan
