// Syntax: a parsed Python file (tree-sitter with the pinned tree-sitter-python grammar) and the small
// vocabulary the analysis needs over it: node kinds as an enum (mapped once from the grammar's symbol
// names, aliases included), named fields, the text of a node, and an iterative pre/post-order walk.
// Nothing here recurses on the tree, so a 5,000-deep nesting cannot overflow the stack.
// Thread-safety: a SyntaxTree is used by one thread; Grammar is immutable after first use.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include <tree_sitter/api.h>

namespace gpudoctor::scan {

enum class NodeKind : std::uint8_t {
  other,
  module,
  identifier,
  attribute,
  call,
  argument_list,
  keyword_argument,
  dictionary_splat,
  list_splat,
  string,
  integer,
  float_,
  true_,
  false_,
  none,
  unary_operator,
  binary_operator,
  comparison_operator,
  boolean_operator,
  not_operator,
  conditional_expression,
  parenthesized_expression,
  subscript,
  list,
  tuple,
  dictionary,
  pattern_list,
  tuple_pattern,
  expression_list,
  expression_statement,
  assignment,
  augmented_assignment,
  for_statement,
  while_statement,
  if_statement,
  with_statement,
  assert_statement,
  raise_statement,
  function_definition,
  class_definition,
  lambda,
  import_statement,
  import_from_statement,
  aliased_import,
  dotted_name,
  comment,
  block,
  else_clause,
  elif_clause,
  except_clause,
  return_statement,
  list_comprehension,
  error,
  k_count
};

enum class Field : std::uint8_t { function, arguments, object, attribute, left, right, name, value, body,
                                  condition, superclasses, module_name, alias, alternative, consequence, k_count };

// The grammar's symbol and field tables, mapped once.
class Grammar {
 public:
  static const Grammar& get();
  const TSLanguage* language() const { return m_language; }
  NodeKind kind(TSSymbol symbol) const { return symbol < m_kinds_size ? m_kinds[symbol] : NodeKind::other; }
  TSFieldId field(Field f) const { return m_fields[static_cast<int>(f)]; }

 private:
  Grammar();
  const TSLanguage* m_language;
  std::unique_ptr<NodeKind[]> m_kinds;
  std::uint32_t m_kinds_size = 0;
  TSFieldId m_fields[static_cast<int>(Field::k_count)] = {};
};

// A node together with the source it was parsed from.
class Node {
 public:
  Node() = default;
  Node(TSNode node, std::string_view source) : m_node(node), m_source(source) {}

  bool valid() const { return !ts_node_is_null(m_node); }
  NodeKind kind() const { return valid() ? Grammar::get().kind(ts_node_symbol(m_node)) : NodeKind::other; }
  bool is(NodeKind k) const { return kind() == k; }
  std::string_view text() const;
  Node field(Field f) const;
  Node parent() const { return {ts_node_parent(m_node), m_source}; }
  std::uint32_t named_count() const { return ts_node_named_child_count(m_node); }
  Node named(std::uint32_t i) const { return {ts_node_named_child(m_node, i), m_source}; }
  Node next_named() const { return {ts_node_next_named_sibling(m_node), m_source}; }
  int row() const { return static_cast<int>(ts_node_start_point(m_node).row); }      // 0-based
  int column() const { return static_cast<int>(ts_node_start_point(m_node).column); }  // 0-based bytes
  std::uint32_t start_byte() const { return ts_node_start_byte(m_node); }
  std::uint32_t end_byte() const { return ts_node_end_byte(m_node); }
  bool is_missing() const { return ts_node_is_missing(m_node); }
  bool has_error() const { return ts_node_has_error(m_node); }
  TSNode raw() const { return m_node; }
  bool operator==(const Node& o) const { return ts_node_eq(m_node, o.m_node); }

 private:
  TSNode m_node{};
  std::string_view m_source;
};

// A parse of one source text. REQUIRES: the source outlives the tree.
class SyntaxTree {
 public:
  // nullopt when tree-sitter gave up (it only does on timeout or cancellation).
  static std::optional<SyntaxTree> parse(std::string_view source);
  Node root() const { return {ts_tree_root_node(m_tree.get()), m_source}; }

 private:
  struct Deleter {
    void operator()(TSTree* t) const { ts_tree_delete(t); }
  };
  SyntaxTree(TSTree* tree, std::string_view source) : m_tree(tree), m_source(source) {}
  std::unique_ptr<TSTree, Deleter> m_tree;
  std::string_view m_source;
};

enum class Descend { yes, no };

// Walks the subtree at `root` in document order with an explicit cursor. `enter(node)` decides
// whether to descend; `leave(node)` runs after a node's children (only for nodes entered with
// Descend::yes or without children).
template <typename Enter, typename Leave>
void walk(Node root, std::string_view source, Enter&& enter, Leave&& leave) {
  TSTreeCursor cursor = ts_tree_cursor_new(root.raw());
  for (;;) {
    Node node(ts_tree_cursor_current_node(&cursor), source);
    if (enter(node) == Descend::yes && ts_tree_cursor_goto_first_child(&cursor)) continue;
    leave(node);
    for (;;) {
      if (ts_node_eq(ts_tree_cursor_current_node(&cursor), root.raw())) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
      if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
      ts_tree_cursor_goto_parent(&cursor);
      leave(Node(ts_tree_cursor_current_node(&cursor), source));
    }
  }
}

// Calls `visit(node)` on every node under `root` (root included) in document order; the subtree of
// a node is skipped when `visit` returns Descend::no.
template <typename Visit>
void for_each_node(Node root, std::string_view source, Visit&& visit) {
  walk(root, source, visit, [](Node) {});
}

// The value of a plain string literal ('cpu', "cuda:0"); nullopt for f-strings, concatenations and
// anything else.
std::optional<std::string_view> string_value(Node node);

// The last component of a dotted name: "torch.nn.Linear" -> "Linear".
std::string_view last_component(std::string_view dotted);

}  // namespace gpudoctor::scan
