#include <probe/python_literals.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::probe {
namespace {

TEST(PyAssignments, ReadsAnnotatedAndPlainTorchVersionFiles) {
  auto a = parse_py_assignments(
      "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
      "__version__ = '2.5.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\n"
      "git_version = 'a8d6afb5'\nhip: Optional[str] = None\n");
  EXPECT_EQ(a["__version__"], "2.5.1+cu121");
  EXPECT_EQ(a["cuda"], "12.1");
  EXPECT_EQ(a["hip"], "None");
  EXPECT_EQ(a["debug"], "False");
  auto old = parse_py_assignments("__version__ = '1.13.0a0'\ncuda = None  # CPU\nhip = \"5.4.22803\"\n");
  EXPECT_EQ(old["cuda"], "None");
  EXPECT_EQ(old["hip"], "5.4.22803");
}

TEST(PyAssignments, IgnoresIndentedAttributeAndComparisonLines) {
  auto a = parse_py_assignments("if x:\n    cuda = '11.8'\ntorch.cuda = '1'\nok == 3\nvalue += 1\n");
  EXPECT_TRUE(a.empty());
}

TEST(PyPairs, ReadsTensorFlowBuildInfo) {
  auto p = parse_py_pairs(
      "import collections\n\nbuild_info = collections.OrderedDict([('cpu_compiler', '/usr/bin/clang'), "
      "('cuda_compute_capabilities', ['sm_50', 'compute_90']), ('cuda_version', '12.2'), ('cudnn_version', '8'), "
      "('is_cuda_build', True), ('is_rocm_build', False)])\n");
  EXPECT_EQ(p["cuda_version"], "12.2");
  EXPECT_EQ(p["cudnn_version"], "8");
  EXPECT_EQ(p["is_cuda_build"], "True");
  EXPECT_EQ(p["is_rocm_build"], "False");
  EXPECT_EQ(p["cuda_compute_capabilities"], "['sm_50', 'compute_90']");
}

}  // namespace
}  // namespace gpudoctor::probe
