#include <watch/process_tree.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include <gtest/gtest.h>

namespace gpudoctor::watch {
namespace {

TEST(ProcessTree, FromParentsIsBreadthFirstAndIgnoresOthers) {
  std::map<int, int> parent_of = {{1, 0}, {10, 1}, {11, 10}, {12, 10}, {13, 11}, {20, 1}, {21, 20}};
  EXPECT_EQ(tree_from_parents(parent_of, 10), (std::vector<int>{10, 11, 12, 13}));
  EXPECT_TRUE(tree_from_parents(parent_of, 99).empty());
}

TEST(ProcessTree, LiveTreeHoldsForkedGrandchildren) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pid_t grandchild = ::fork();
    if (grandchild == 0) {
      ::pause();
      ::_exit(0);
    }
    (void)!::write(ready[1], &grandchild, sizeof grandchild);
    ::pause();
    ::_exit(0);
  }
  pid_t grandchild = 0;
  ASSERT_EQ(::read(ready[0], &grandchild, sizeof grandchild), static_cast<ssize_t>(sizeof grandchild));
  auto fs = sys::make_rooted_file_system("/");
  auto tree = process_tree(*fs, static_cast<int>(::getpid()));
  EXPECT_NE(std::find(tree.begin(), tree.end(), child), tree.end());
  EXPECT_NE(std::find(tree.begin(), tree.end(), grandchild), tree.end());
  EXPECT_EQ(tree.front(), ::getpid());
  ::kill(grandchild, SIGKILL);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  EXPECT_TRUE(process_tree(*fs, 0x3fffffff).empty());
}

}  // namespace
}  // namespace gpudoctor::watch
