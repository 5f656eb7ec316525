// Syntax: a parsed Python file (tree-sitter with the pinned tree-sitter-python grammar) and the small
// vocabulary the analysis needs over it: node kinds as an enum (mapped once from the grammar's symbol
// names, aliases included), named fields, the text of a node, and an iterative pre/post-order walk.
// Nothing here recurses on the tree, so a 5,000-deep nesting cannot overflow the stack.
//
// After the parse, the visible nodes are copied once into a flat array in document order (each with
// its parent, the end of its subtree, its field in the parent, its kind and position) and
// tree-sitter's tree is freed. The analysis walks the tree many times and asks for parents and
// fields constantly; over tree-sitter's own nodes that cost more than the parse (a parent is found
// by descending from the root again), over the array each step is an index.
// Thread-safety: a SyntaxTree is used by one thread; Grammar is immutable after first use.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

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
                                  condition, superclasses, module_name, alias, alternative, consequence,
                                  parameters, subscript, k_count };

// The grammar's symbol and field tables, mapped once.
class Grammar {
 public:
  static const Grammar& get();
  const TSLanguage* language() const { return m_language; }
  // tree-sitter's ERROR node has the largest symbol number (ts_builtin_sym_error), past the table.
  NodeKind kind(TSSymbol symbol) const {
    if (symbol == static_cast<TSSymbol>(-1)) return NodeKind::error;
    return symbol < m_kinds_size ? m_kinds[symbol] : NodeKind::other;
  }
  TSFieldId field(Field f) const { return m_fields[static_cast<int>(f)]; }
  // The grammar's name of a symbol ("try_statement"), for the kinds without a NodeKind.
  const char* type_name(TSSymbol symbol) const;

 private:
  Grammar();
  const TSLanguage* m_language;
  std::unique_ptr<NodeKind[]> m_kinds;
  std::uint32_t m_kinds_size = 0;
  TSFieldId m_fields[static_cast<int>(Field::k_count)] = {};
};

// One visible node of a parsed file, in the flat array of its SyntaxTree.
struct FlatNode {
  static constexpr std::uint32_t k_none = 0xffffffffu;
  enum Flag : std::uint8_t { named = 1, missing = 2, has_error = 4 };
  std::uint32_t start_byte = 0;
  std::uint32_t end_byte = 0;
  std::uint32_t row = 0;     // 0-based
  std::uint32_t column = 0;  // 0-based bytes
  std::uint32_t parent = k_none;
  std::uint32_t end = 0;  // one past the last node of its subtree: its first child is the next node, if below end
  TSSymbol symbol = 0;
  TSFieldId field = 0;  // its field in the parent; 0 for none
  std::uint16_t named_count = 0;  // its named children; k_many_named when there are at least that many
  NodeKind kind = NodeKind::other;
  std::uint8_t flags = 0;
  static constexpr std::uint16_t k_many_named = 0xffff;
};

// The nodes of one parse and the source they were parsed from. REQUIRES: the source outlives it.
struct FlatTree {
  std::vector<FlatNode> nodes;
  std::string_view source;
  // The last child looked up by position, so that a loop over named(i) or child(i) steps from it
  // instead of counting from the first child each time.
  struct Step {
    std::uint32_t parent = FlatNode::k_none;
    std::uint32_t position = 0;
    std::uint32_t child = FlatNode::k_none;
    bool named = false;
  };
  mutable Step last_step;
};

// A node of a FlatTree: a tree and an index. The default node is invalid, and so is every node
// asked of an invalid one.
class Node {
 public:
  Node() = default;
  Node(const FlatTree* tree, std::uint32_t index) : m_tree(tree), m_index(index) {}

  bool valid() const { return m_tree != nullptr && m_index != FlatNode::k_none; }
  NodeKind kind() const { return valid() ? at().kind : NodeKind::other; }
  bool is(NodeKind k) const { return kind() == k; }
  // The grammar's name of the node's kind ("try_statement"); "" for an invalid node.
  std::string_view type() const;
  std::string_view text() const;
  Node field(Field f) const;
  Node parent() const { return valid() ? Node(m_tree, at().parent) : Node(); }
  // All visible children, anonymous tokens ("(", "if", "+") included.
  std::uint32_t child_count() const;
  Node child(std::uint32_t i) const;
  // The named children only.
  std::uint32_t named_count() const;
  Node named(std::uint32_t i) const;
  Node next_named() const;
  Node next_sibling() const;  // the next visible sibling, anonymous or named
  bool is_named() const { return valid() && (at().flags & FlatNode::named) != 0; }
  int row() const { return valid() ? static_cast<int>(at().row) : 0; }
  int column() const { return valid() ? static_cast<int>(at().column) : 0; }
  std::uint32_t start_byte() const { return valid() ? at().start_byte : 0; }
  std::uint32_t end_byte() const { return valid() ? at().end_byte : 0; }
  bool is_missing() const { return valid() && (at().flags & FlatNode::missing) != 0; }
  bool has_error() const { return valid() && (at().flags & FlatNode::has_error) != 0; }
  // The tree-sitter symbol (aliases resolved); 0 for an invalid node.
  TSSymbol symbol() const { return valid() ? at().symbol : 0; }
  bool operator==(const Node& o) const { return m_tree == o.m_tree && m_index == o.m_index; }

  // For walk(): the tree and the index.
  const FlatTree* tree() const { return m_tree; }
  std::uint32_t index() const { return m_index; }

 private:
  const FlatNode& at() const { return m_tree->nodes[m_index]; }
  Node nth_child(std::uint32_t i, bool named_only) const;
  // The first child of the node, or k_none.
  std::uint32_t first_child() const { return at().end > m_index + 1 ? m_index + 1 : FlatNode::k_none; }
  // The sibling after child `c` of this node, or k_none.
  std::uint32_t after(std::uint32_t c) const {
    std::uint32_t n = m_tree->nodes[c].end;
    return n < at().end ? n : FlatNode::k_none;
  }

  const FlatTree* m_tree = nullptr;
  std::uint32_t m_index = FlatNode::k_none;
};

// A parse of one source text. REQUIRES: the source outlives the tree.
class SyntaxTree {
 public:
  // nullopt when tree-sitter gave up (it only does on timeout or cancellation).
  static std::optional<SyntaxTree> parse(std::string_view source);
  Node root() const { return {m_flat.get(), 0}; }

 private:
  explicit SyntaxTree(std::unique_ptr<FlatTree> flat) : m_flat(std::move(flat)) {}
  std::unique_ptr<FlatTree> m_flat;  // on the heap: the nodes keep pointing at it when the tree moves
};

enum class Descend { yes, no };

// Walks the subtree at `root` in document order, by index, without recursion. `enter(node)` decides
// whether to descend; `leave(node)` runs after a node's children (only for nodes entered with
// Descend::yes or without children).
template <typename Enter, typename Leave>
void walk(Node root, Enter&& enter, Leave&& leave) {
  if (!root.valid()) return;
  const FlatTree* tree = root.tree();
  const auto& nodes = tree->nodes;
  const std::uint32_t top = root.index();
  std::uint32_t i = top;
  for (;;) {
    if (enter(Node(tree, i)) == Descend::yes && nodes[i].end > i + 1) {
      ++i;
      continue;
    }
    leave(Node(tree, i));
    for (;;) {
      if (i == top) return;
      const std::uint32_t parent = nodes[i].parent;
      if (nodes[i].end < nodes[parent].end) {
        i = nodes[i].end;
        break;
      }
      i = parent;
      leave(Node(tree, i));
    }
  }
}

// Calls `visit(node)` on every node under `root` (root included) in document order; the subtree of
// a node is skipped when `visit` returns Descend::no.
template <typename Visit>
void for_each_node(Node root, Visit&& visit) {
  walk(root, visit, [](Node) {});
}

// The value of a plain string literal ('cpu', "cuda:0"); nullopt for f-strings, concatenations and
// anything else.
std::optional<std::string_view> string_value(Node node);

// The last component of a dotted name: "torch.nn.Linear" -> "Linear".
std::string_view last_component(std::string_view dotted);

}  // namespace gpudoctor::scan
