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
                                         "superclasses", "module_name", "alias", "alternative", "consequence",
                                         "parameters", "subscript"};
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

const char* Grammar::type_name(TSSymbol symbol) const {
  const char* name = ts_language_symbol_name(m_language, symbol);
  return name == nullptr ? "" : name;
}

std::string_view Node::type() const { return valid() ? Grammar::get().type_name(at().symbol) : std::string_view(); }

std::string_view Node::text() const {
  if (!valid()) return {};
  const FlatNode& n = at();
  const std::string_view source = m_tree->source;
  if (n.start_byte > source.size() || n.end_byte > source.size() || n.end_byte < n.start_byte) return {};
  return source.substr(n.start_byte, n.end_byte - n.start_byte);
}

Node Node::field(Field f) const {
  if (!valid()) return {};
  const TSFieldId id = Grammar::get().field(f);
  if (id == 0) return {};
  for (std::uint32_t c = first_child(); c != FlatNode::k_none; c = after(c)) {
    if (m_tree->nodes[c].field == id) return {m_tree, c};
  }
  return {};
}

std::uint32_t Node::child_count() const {
  if (!valid()) return 0;
  std::uint32_t count = 0;
  for (std::uint32_t c = first_child(); c != FlatNode::k_none; c = after(c)) ++count;
  return count;
}

Node Node::nth_child(std::uint32_t i, bool named_only) const {
  if (!valid()) return {};
  const auto& nodes = m_tree->nodes;
  auto counts = [&](std::uint32_t c) { return !named_only || (nodes[c].flags & FlatNode::named) != 0; };
  // Continue from the last lookup under this node when it was at or before position i.
  FlatTree::Step& last = m_tree->last_step;
  std::uint32_t c = first_child(), position = 0;
  if (last.parent == m_index && last.named == named_only && last.position <= i && last.child != FlatNode::k_none) {
    c = last.child;
    position = last.position;
  } else {
    while (c != FlatNode::k_none && !counts(c)) c = after(c);
  }
  while (c != FlatNode::k_none && position < i) {
    c = after(c);
    while (c != FlatNode::k_none && !counts(c)) c = after(c);
    ++position;
  }
  if (c == FlatNode::k_none) return {};
  last = {m_index, position, c, named_only};
  return {m_tree, c};
}

Node Node::child(std::uint32_t i) const { return nth_child(i, false); }

std::uint32_t Node::named_count() const {
  if (!valid()) return 0;
  if (at().named_count != FlatNode::k_many_named) return at().named_count;
  std::uint32_t count = 0;
  for (std::uint32_t c = first_child(); c != FlatNode::k_none; c = after(c)) {
    count += (m_tree->nodes[c].flags & FlatNode::named) != 0 ? 1 : 0;
  }
  return count;
}

Node Node::named(std::uint32_t i) const { return nth_child(i, true); }

Node Node::next_named() const {
  if (!valid() || at().parent == FlatNode::k_none) return {};
  const Node up(m_tree, at().parent);
  for (std::uint32_t c = up.after(m_index); c != FlatNode::k_none; c = up.after(c)) {
    if ((m_tree->nodes[c].flags & FlatNode::named) != 0) return {m_tree, c};
  }
  return {};
}

Node Node::next_sibling() const {
  if (!valid() || at().parent == FlatNode::k_none) return {};
  return {m_tree, Node(m_tree, at().parent).after(m_index)};
}

namespace {

FlatNode flat_node(TSNode n, const TSTreeCursor& cursor, std::uint32_t parent) {
  FlatNode f;
  f.start_byte = ts_node_start_byte(n);
  f.end_byte = ts_node_end_byte(n);
  const TSPoint p = ts_node_start_point(n);
  f.row = p.row;
  f.column = p.column;
  f.parent = parent;
  f.symbol = ts_node_symbol(n);
  f.field = ts_tree_cursor_current_field_id(&cursor);
  f.kind = Grammar::get().kind(f.symbol);
  f.flags = static_cast<std::uint8_t>((ts_node_is_named(n) ? FlatNode::named : 0) |
                                      (ts_node_is_missing(n) ? FlatNode::missing : 0) |
                                      (ts_node_has_error(n) ? FlatNode::has_error : 0));
  return f;
}

// Counts node `i` among its parent's named children (saturating at k_many_named).
void count_named(std::vector<FlatNode>& nodes, std::uint32_t i) {
  if ((nodes[i].flags & FlatNode::named) == 0) return;
  std::uint16_t& count = nodes[nodes[i].parent].named_count;
  if (count != FlatNode::k_many_named) ++count;
}

// The visible nodes of `tree` in document order, each with its parent and the end of its subtree.
// One cursor pass, no recursion.
std::vector<FlatNode> flatten(const TSTree* tree, std::size_t source_bytes) {
  std::vector<FlatNode> nodes;
  nodes.reserve(source_bytes / 4 + 16);  // Python has about one visible node per 3-5 bytes
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
  std::uint32_t current = 0;
  nodes.push_back(flat_node(ts_tree_cursor_current_node(&cursor), cursor, FlatNode::k_none));
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      const std::uint32_t parent = current;
      current = static_cast<std::uint32_t>(nodes.size());
      nodes.push_back(flat_node(ts_tree_cursor_current_node(&cursor), cursor, parent));
      count_named(nodes, current);
      continue;
    }
    nodes[current].end = static_cast<std::uint32_t>(nodes.size());
    for (;;) {
      const std::uint32_t parent = nodes[current].parent;
      if (parent == FlatNode::k_none) {
        ts_tree_cursor_delete(&cursor);
        return nodes;
      }
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        current = static_cast<std::uint32_t>(nodes.size());
        nodes.push_back(flat_node(ts_tree_cursor_current_node(&cursor), cursor, parent));
        count_named(nodes, current);
        break;
      }
      ts_tree_cursor_goto_parent(&cursor);
      current = parent;
      nodes[current].end = static_cast<std::uint32_t>(nodes.size());
    }
  }
}

}  // namespace

std::optional<SyntaxTree> SyntaxTree::parse(std::string_view source) {
  std::unique_ptr<TSParser, void (*)(TSParser*)> parser(ts_parser_new(), ts_parser_delete);
  if (!ts_parser_set_language(parser.get(), Grammar::get().language())) return std::nullopt;
  std::unique_ptr<TSTree, void (*)(TSTree*)> tree(
      ts_parser_parse_string(parser.get(), nullptr, source.data(), static_cast<std::uint32_t>(source.size())),
      ts_tree_delete);
  if (tree == nullptr) return std::nullopt;
  auto flat = std::make_unique<FlatTree>();
  flat->nodes = flatten(tree.get(), source.size());
  flat->source = source;
  return SyntaxTree(std::move(flat));
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
