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

TEST(Notebook, CellsAreLabelledByPositionAndLinesAreCellRelative) {
  std::string nb = R"({"nbformat": 4, "cells": [
    {"cell_type": "markdown", "source": "# title"},
    {"cell_type": "code", "source": ["import torch\n", "x = 1"]},
    {"cell_type": "code", "source": "y = 2\nz = 3\n"}]})";
  auto src = notebook_source("nb.ipynb", nb);
  ASSERT_TRUE(src) << src.error().message;
  auto loc = src->locate(3, 0);  // "z = 3": third row of the joined text
  EXPECT_EQ(loc.cell, "cell 3");
  EXPECT_EQ(loc.line, 2);
  EXPECT_EQ(src->locate(0, 0).cell, "cell 2");
}

TEST(Notebook, StateCarriesAcrossCells) {
  // CUDA touched in one cell, CUDA_VISIBLE_DEVICES set in a later one (the kernel keeps state).
  std::string nb = R"({"nbformat": 4, "cells": [
    {"cell_type": "code", "source": "import os, torch\ntorch.cuda.init()\n"},
    {"cell_type": "code", "source": "os.environ['CUDA_VISIBLE_DEVICES'] = '1'\n"}]})";
  auto src = notebook_source("nb.ipynb", nb);
  ASSERT_TRUE(src);
  auto result = analyze(*src);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].id, "code.visible_devices_after_init");
  EXPECT_EQ(result.findings[0].location->cell, "cell 2");
  EXPECT_EQ(result.findings[0].location->line, 1);
}

TEST(Notebook, BrokenJsonAndMissingFieldsAreNotesNotCrashes) {
  EXPECT_FALSE(notebook_source("a.ipynb", "{\"cells\": [")) << "truncated JSON";
  EXPECT_FALSE(notebook_source("b.ipynb", "[1, 2]"));
  EXPECT_FALSE(notebook_source("c.ipynb", R"({"nbformat": 3, "worksheets": []})"));
  EXPECT_FALSE(notebook_source("d.ipynb", R"({"cells": [], "metadata": {"language_info": {"name": "julia"}}})"));
  auto partial = notebook_source("e.ipynb", R"({"cells": [{"source": "x"}, 7, {"cell_type": "code", "source": 5},
      {"cell_type": "code", "source": "import torch\n"}]})");
  ASSERT_TRUE(partial);
  ASSERT_EQ(partial->notes.size(), 1u);
  EXPECT_NE(partial->notes[0].find("3 cell(s)"), std::string::npos) << partial->notes[0];
  EXPECT_EQ(partial->cells.size(), 1u);
  EXPECT_EQ(partial->cells[0].label, "cell 4");
}

}  // namespace
}  // namespace gpudoctor::scan
