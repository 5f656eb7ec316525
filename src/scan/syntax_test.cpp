// The flat tree (syntax.hpp): parents, fields, children by position in any order, named counts past
// what a node stores, and the walk, checked against the shape tree-sitter gives a known snippet.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <scan/syntax.hpp>

namespace gpudoctor::scan {
namespace {

TEST(Syntax, FieldsParentsAndChildren) {
  const std::string src = "x = f(a, b=2)\n";
  auto tree = SyntaxTree::parse(src);
  ASSERT_TRUE(tree);
  Node root = tree->root();
  ASSERT_TRUE(root.is(NodeKind::module));
  EXPECT_FALSE(root.parent().valid());
  Node stmt = root.named(0);
  ASSERT_TRUE(stmt.is(NodeKind::expression_statement));
  Node assign = stmt.named(0);
  ASSERT_TRUE(assign.is(NodeKind::assignment));
  EXPECT_EQ(assign.field(Field::left).text(), "x");
  Node call = assign.field(Field::right);
  ASSERT_TRUE(call.is(NodeKind::call));
  EXPECT_EQ(call.parent(), assign);
  EXPECT_EQ(call.field(Field::function).text(), "f");
  Node args = call.field(Field::arguments);
  // "(", "a", ",", "b=2", ")": five children, two of them named.
  EXPECT_EQ(args.child_count(), 5u);
  EXPECT_EQ(args.named_count(), 2u);
  EXPECT_EQ(args.named(1).type(), "keyword_argument");
  EXPECT_EQ(args.named(1).field(Field::name).text(), "b");
  EXPECT_EQ(args.child(0).text(), "(");
  EXPECT_FALSE(args.child(0).is_named());
  EXPECT_EQ(args.named(0).next_named(), args.named(1));
  EXPECT_EQ(args.child(3).next_sibling().text(), ")");
  EXPECT_FALSE(args.child(4).next_sibling().valid());
  EXPECT_FALSE(args.named(2).valid());
  EXPECT_FALSE(call.field(Field::alias).valid());
  EXPECT_EQ(call.row(), 0);
  EXPECT_EQ(call.column(), 4);
  // An invalid node answers invalid or empty for everything.
  Node none;
  EXPECT_FALSE(none.parent().valid());
  EXPECT_EQ(none.named_count(), 0u);
  EXPECT_EQ(none.text(), "");
}

TEST(Syntax, ChildrenByPositionInAnyOrderAndPastTheStoredCount) {
  // 70,000 statements: more named children than a node stores a count for.
  std::string src;
  const std::uint32_t n = 70000;
  for (std::uint32_t i = 0; i < n; ++i) src += "v" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  auto tree = SyntaxTree::parse(src);
  ASSERT_TRUE(tree);
  Node root = tree->root();
  ASSERT_EQ(root.named_count(), n);
  // In order, backwards, and jumping about: each position gives its own statement.
  for (std::uint32_t i = 0; i < n; i += 7919) EXPECT_EQ(root.named(i).row(), static_cast<int>(i));
  for (std::uint32_t i = n; i-- > 0;) {
    if (i % 9973 == 0) {
      EXPECT_EQ(root.named(i).row(), static_cast<int>(i));
    }
  }
  EXPECT_EQ(root.named(5).row(), 5);
  EXPECT_EQ(root.named(3).row(), 3);
  EXPECT_EQ(root.child(n - 1).row(), static_cast<int>(n - 1));
  EXPECT_FALSE(root.named(n).valid());
  // A different node in between does not confuse the next lookup.
  Node last = root.named(n - 1).named(0);
  EXPECT_EQ(last.field(Field::right).text(), std::to_string(n - 1));
  EXPECT_EQ(root.named(4).row(), 4);
}

TEST(Syntax, WalkVisitsEveryNodeOnceInDocumentOrderAndStopsAtTheSubtree) {
  const std::string src = "def f(x):\n    return g(x) + 1\ny = 2\n";
  auto tree = SyntaxTree::parse(src);
  ASSERT_TRUE(tree);
  std::vector<std::uint32_t> entered, left;
  walk(tree->root(), [&](Node n) { entered.push_back(n.start_byte()); return Descend::yes; },
       [&](Node n) { left.push_back(n.end_byte()); });
  EXPECT_EQ(entered.size(), left.size());
  for (std::size_t i = 1; i < entered.size(); ++i) EXPECT_LE(entered[i - 1], entered[i]);
  // The walk of the function's body never reaches `y = 2`.
  Node def = tree->root().named(0);
  ASSERT_TRUE(def.is(NodeKind::function_definition));
  bool outside = false;
  for_each_node(def.field(Field::body), [&](Node n) {
    outside = outside || n.start_byte() >= def.end_byte();
    return Descend::yes;
  });
  EXPECT_FALSE(outside);
}

TEST(Syntax, ErrorsAndMissingNodesAreMarked) {
  const std::string src = "f(1,\n";
  auto tree = SyntaxTree::parse(src);
  ASSERT_TRUE(tree);
  EXPECT_TRUE(tree->root().has_error());
  bool missing_or_error = false;
  for_each_node(tree->root(), [&](Node n) {
    missing_or_error = missing_or_error || n.is_missing() || n.is(NodeKind::error);
    return Descend::yes;
  });
  EXPECT_TRUE(missing_or_error);
}

}  // namespace
}  // namespace gpudoctor::scan
