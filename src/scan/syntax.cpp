#include <scan/syntax.hpp>

#include <cstring>
#include <string>

extern "C" const TSLanguage* tree_sitter_python();

namespace gpudoctor::scan {
namespace {

struct KindName {
  const char* name;
  NodeKind kind;
};

// Grammar node names (tree-sitter-python 0.23 node-types.json) for the kinds the analysis reads.
constexpr KindName k_kind_names[] = {
    {"module", NodeKind::module},
    {"identifier", NodeKind::identifier},
    {"attribute", NodeKind::attribute},
    {"call", NodeKind::call},
    {"argument_list", NodeKind::argument_list},
    {"keyword_argument", NodeKind::keyword_argument},
    {"dictionary_splat", NodeKind::dictionary_splat},
    {"list_splat", NodeKind::list_splat},
    {"string", NodeKind::string},
    {"integer", NodeKind::integer},
    {"float", NodeKind::float_},
    {"true", NodeKind::true_},
    {"false", NodeKind::false_},
    {"none", NodeKind::none},
    {"unary_operator", NodeKind::unary_operator},
    {"binary_operator", NodeKind::binary_operator},
    {"comparison_operator", NodeKind::comparison_operator},
    {"boolean_operator", NodeKind::boolean_operator},
    {"not_operator", NodeKind::not_operator},
    {"conditional_expression", NodeKind::conditional_expression},
    {"parenthesized_expression", NodeKind::parenthesized_expression},
    {"subscript", NodeKind::subscript},
    {"list", NodeKind::list},
    {"tuple", NodeKind::tuple},
    {"dictionary", NodeKind::dictionary},
    {"pattern_list", NodeKind::pattern_list},
    {"tuple_pattern", NodeKind::tuple_pattern},
    {"expression_list", NodeKind::expression_list},
    {"expression_statement", NodeKind::expression_statement},
    {"assignment", NodeKind::assignment},
    {"augmented_assignment", NodeKind::augmented_assignment},
    {"for_statement", NodeKind::for_statement},
    {"while_statement", NodeKind::while_statement},
    {"if_statement", NodeKind::if_statement},
    {"with_statement", NodeKind::with_statement},
    {"assert_statement", NodeKind::assert_statement},
    {"raise_statement", NodeKind::raise_statement},
    {"function_definition", NodeKind::function_definition},
    {"class_definition", NodeKind::class_definition},
    {"lambda", NodeKind::lambda},
    {"import_statement", NodeKind::import_statement},
    {"import_from_statement", NodeKind::import_from_statement},
    {"aliased_import", NodeKind::aliased_import},
    {"dotted_name", NodeKind::dotted_name},
    {"comment", NodeKind::comment},
    {"block", NodeKind::block},
    {"else_clause", NodeKind::else_clause},
    {"elif_clause", NodeKind::elif_clause},
    {"except_clause", NodeKind::except_clause},
    {"return_statement", NodeKind::return_statement},
    {"list_comprehension", NodeKind::list_comprehension},
    {"ERROR", NodeKind::error},
};

constexpr const char* k_field_names[] = {"function", "arguments", "object",       "attribute", "left",
                                         "right",    "name",      "value",        "body",      "condition",
                                         "superclasses", "module_name", "alias", "alternative", "consequence"};
static_assert(std::size(k_field_names) == static_cast<std::size_t>(Field::k_count));

}  // namespace

Grammar::Grammar() : m_language(tree_sitter_python()) {
  // Map by name over every symbol: aliased nodes share a name with distinct symbol ids.
  m_kinds_size = ts_language_symbol_count(m_language);
  m_kinds = std::make_unique<NodeKind[]>(m_kinds_size);
  for (TSSymbol s = 0; s < m_kinds_size; ++s) {
    m_kinds[s] = NodeKind::other;
    const char* name = ts_language_symbol_name(m_language, s);
    if (name == nullptr) continue;
    // Anonymous tokens ("if", "(") are never one of our kinds, except the named ERROR node.
    if (ts_language_symbol_type(m_language, s) != TSSymbolTypeRegular && std::strcmp(name, "ERROR") != 0) continue;
    for (const auto& kn : k_kind_names) {
      if (std::strcmp(name, kn.name) == 0) m_kinds[s] = kn.kind;
    }
  }
  for (std::size_t i = 0; i < std::size(k_field_names); ++i) {
    m_fields[i] = ts_language_field_id_for_name(m_language, k_field_names[i],
                                                static_cast<std::uint32_t>(std::strlen(k_field_names[i])));
  }
}

const Grammar& Grammar::get() {
  static const Grammar k_grammar;
  return k_grammar;
}

std::string_view Node::text() const {
  if (!valid()) return {};
  std::uint32_t b = start_byte(), e = end_byte();
  if (b > m_source.size() || e > m_source.size() || e < b) return {};
  return m_source.substr(b, e - b);
}

Node Node::field(Field f) const {
  if (!valid()) return {};
  return {ts_node_child_by_field_id(m_node, Grammar::get().field(f)), m_source};
}

std::optional<SyntaxTree> SyntaxTree::parse(std::string_view source) {
  std::unique_ptr<TSParser, void (*)(TSParser*)> parser(ts_parser_new(), ts_parser_delete);
  if (!ts_parser_set_language(parser.get(), Grammar::get().language())) return std::nullopt;
  TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, source.data(), static_cast<std::uint32_t>(source.size()));
  if (tree == nullptr) return std::nullopt;
  return SyntaxTree(tree, source);
}

std::optional<std::string_view> string_value(Node node) {
  if (!node.is(NodeKind::string)) return std::nullopt;
  std::string_view t = node.text();
  std::size_t i = 0;
  while (i < t.size() && t[i] != '\'' && t[i] != '"') {
    if (t[i] == 'f' || t[i] == 'F') return std::nullopt;  // an f-string has no fixed value
    ++i;
  }
  if (i >= t.size()) return std::nullopt;
  char q = t[i];
  std::size_t quote = (t.size() >= i + 6 && t[i + 1] == q && t[i + 2] == q) ? 3 : 1;
  if (t.size() < i + 2 * quote) return std::nullopt;
  return t.substr(i + quote, t.size() - i - 2 * quote);
}

std::string_view last_component(std::string_view dotted) {
  auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

}  // namespace gpudoctor::scan
