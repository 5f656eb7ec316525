#include <scan/notebook.hpp>

#include <gtest/gtest.h>

#include <scan/analyzer.hpp>

namespace gpudoctor::scan {
namespace {

TEST(Notebook, MagicsAreNeutralisedInPlace) {
  std::string cell = "%pip install torch\n  !nvidia-smi\nfiles = !ls *.py\nx = 1 != 2\n%env CUDA_VISIBLE_DEVICES=0\n";
  std::vector<Magic> magics;
  std::string out = neutralise_magics(cell, &magics);
  EXPECT_EQ(out.size(), cell.size());
  EXPECT_EQ(out, "#pip install torch\n  #nvidia-smi\nfiles = 0       \nx = 1 != 2\n#env CUDA_VISIBLE_DEVICES=0\n");
  ASSERT_EQ(magics.size(), 1u);
  EXPECT_EQ(magics[0].row, 4);
}

TEST(Notebook, NonPythonCellMagicCommentsTheCellButTimingMagicsDoNot) {
  EXPECT_EQ(neutralise_magics("%%bash\necho hi\n"), "#%bash\n#cho hi\n");
  EXPECT_EQ(neutralise_magics("%%time\nx = f()\n"), "#%time\nx = f()\n");
}

// Labels as Jupyter shows them: Markdown cells are not counted; a cell that ran is known by its
// execution count. Lines are cell-relative, and each knows its line in the .ipynb file.
TEST(Notebook, CellsAreLabelledAsJupyterShowsThemAndLinesAreCellRelative) {
  std::string nb = R"({"nbformat": 4, "cells": [
    {"cell_type": "markdown", "source": "# title"},
    {"cell_type": "code", "execution_count": null, "source": ["import torch\n", "x = 1"]},
    {"cell_type": "code", "source": "y = 2\nz = 3\n"},
    {"cell_type": "code", "execution_count": 12,
     "source": [
      "a = 1\n",
      "b = 2\n"
     ]}]})";
  auto src = notebook_source("nb.ipynb", nb);
  ASSERT_TRUE(src) << src.error().message;
  auto loc = src->locate(3, 0);  // "z = 3": third row of the joined text
  EXPECT_EQ(loc.cell, "code cell 2");
  EXPECT_EQ(loc.line, 2);
  EXPECT_EQ(src->locate(0, 0).cell, "code cell 1");
  auto ran = src->locate(5, 0);  // "b = 2"
  EXPECT_EQ(ran.cell, "cell [12]");
  EXPECT_EQ(ran.line, 2);
  EXPECT_EQ(ran.file_line, 8);  // the line of the JSON text holding "b = 2\n"
  EXPECT_EQ(src->locate(4, 0).file_line, 7);
  EXPECT_EQ(src->locate(1, 0).file_line, 3);  // "x = 1" of the one-line array
}

// nbformat 3 keeps cells in worksheets, the code in "input", the count in "prompt_number".
TEST(Notebook, Nbformat3IsRead) {
  std::string nb = R"({"nbformat": 3, "worksheets": [{"cells": [
    {"cell_type": "markdown", "source": ["# hi"]},
    {"cell_type": "code", "language": "python", "prompt_number": 4,
     "input": ["import os\n", "os.environ['CUDA_VISIBLE_DEVICES'] = '-1'\n"]}]}]})";
  auto src = notebook_source("old.ipynb", nb);
  ASSERT_TRUE(src) << src.error().message;
  auto result = analyze(*src);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].id, "code.visible_devices_after_init");
  EXPECT_EQ(result.findings[0].location->cell, "cell [4]");
  EXPECT_EQ(result.findings[0].location->line, 2);
}

// A line that continues an expression is Python, whatever its first character.
TEST(Notebook, ContinuationLinesAreNotMagics) {
  std::string cell = "print(\"loss = %.4f\"\n      % loss)\ns = \"\"\"\n%not a magic\n\"\"\"\nx = 1 + \\\n  !y\n%time f()\n";
  std::string out = neutralise_magics(cell);
  EXPECT_EQ(out, cell.substr(0, cell.rfind("%time")) + "#time f()\n");
  // Brackets inside strings and comments do not open anything.
  EXPECT_EQ(neutralise_magics("s = '('  # (\n%pip list\n"), "s = '('  # (\n#pip list\n");
}

TEST(Notebook, StateCarriesAcrossCells) {
  // CUDA touched in one cell, CUDA_VISIBLE_DEVICES set in a later one (the kernel keeps state).
  std::string nb = R"({"nbformat": 4, "cells": [
    {"cell_type": "code", "source": "import os, torch\ntorch.cuda.init()\n"},
    {"cell_type": "code", "source": "os.environ['CUDA_VISIBLE_DEVICES'] = '1'\n"}]})";  // never ran
  auto src = notebook_source("nb.ipynb", nb);
  ASSERT_TRUE(src);
  auto result = analyze(*src);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].id, "code.visible_devices_after_init");
  EXPECT_EQ(result.findings[0].location->cell, "code cell 2");
  EXPECT_EQ(result.findings[0].location->line, 1);
}

TEST(Notebook, BrokenJsonAndMissingFieldsAreNotesNotCrashes) {
  EXPECT_FALSE(notebook_source("a.ipynb", "{\"cells\": [")) << "truncated JSON";
  EXPECT_FALSE(notebook_source("b.ipynb", "[1, 2]"));
  EXPECT_FALSE(notebook_source("c.ipynb", R"({"nbformat": 2})"));
  EXPECT_FALSE(notebook_source("d.ipynb", R"({"cells": [], "metadata": {"language_info": {"name": "julia"}}})"));
  auto partial = notebook_source("e.ipynb", R"({"cells": [{"source": "x"}, 7, {"cell_type": "code", "source": 5},
      {"cell_type": "code", "source": "import torch\n"}]})");
  ASSERT_TRUE(partial);
  ASSERT_EQ(partial->notes.size(), 1u);
  EXPECT_NE(partial->notes[0].find("3 cell(s)"), std::string::npos) << partial->notes[0];
  EXPECT_EQ(partial->cells.size(), 1u);
  EXPECT_EQ(partial->cells[0].label, "code cell 2");
}

}  // namespace
}  // namespace gpudoctor::scan
