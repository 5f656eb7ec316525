// The project-wide index: classes that are torch modules across files, and functions that build a
// module and return it without placing it, so that a model built in models.py is known on the CPU
// in train.py.
#include <algorithm>

#include <gtest/gtest.h>

#include <scan/analyzer.hpp>
#include <scan/project_index.hpp>
#include <scan/source.hpp>

namespace gpudoctor::scan {
namespace {

const char* k_models =
    "import torch\n"
    "from torch import nn\n"
    "\n"
    "\n"
    "class Net(nn.Module):\n"
    "    def __init__(self, width=32):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(8, width)\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.fc(x)\n"
    "\n"
    "\n"
    "def build_model(cfg):\n"
    "    # a comment line inside the body\n"
    "    model = Net(cfg[\"width\"])\n"
    "    return model\n"
    "\n"
    "\n"
    "def build_head():\n"
    "    return nn.Sequential(nn.Linear(4, 4), nn.ReLU())\n"
    "\n"
    "\n"
    "def build_moved(cfg, device):\n"
    "    return Net(cfg[\"width\"]).to(device)\n"
    "\n"
    "\n"
    "def build_loss():\n"
    "    return nn.MSELoss()\n"
    "\n"
    "\n"
    "def width_of(cfg):\n"
    "    return cfg[\"width\"]\n"
    "\n"
    "\n"
    "def maybe_model(cfg):\n"
    "    if cfg:\n"
    "        return Net()\n"
    "    return None\n";

ProjectIndex index_of(std::initializer_list<const char*> sources) {
  ProjectIndex p;
  for (const char* s : sources) p.add_source(s);
  p.finish();
  return p;
}

TEST(ProjectIndex, FunctionsThatBuildAModuleAndReturnItUnplaced) {
  const auto p = index_of({k_models});
  EXPECT_TRUE(p.is_module_class("Net"));
  EXPECT_TRUE(p.returns_module_on_host("build_model"));  // through the name it bound
  EXPECT_TRUE(p.returns_module_on_host("build_head"));   // torch.nn's own
  EXPECT_FALSE(p.returns_module_on_host("build_moved"));  // placed before it returns
  EXPECT_FALSE(p.returns_module_on_host("build_loss"));   // a loss is not the model
  EXPECT_FALSE(p.returns_module_on_host("width_of"));
  EXPECT_FALSE(p.returns_module_on_host("maybe_model"));  // one return is something else
  EXPECT_FALSE(p.returns_module_on_host("forward"));      // methods are not indexed
}

TEST(ProjectIndex, AFunctionDefinedTwiceIsNotKnown) {
  const auto p = index_of({k_models, "def build_model(cfg):\n    return load(cfg)\n"});
  EXPECT_FALSE(p.returns_module_on_host("build_model"));
}

const char* k_train =
    "import torch\n"
    "from models import build_model, build_moved\n"
    "\n"
    "\n"
    "def train(cfg, loader):\n"
    "    device = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n"
    "    model = build_model(cfg)\n"
    "    other = build_moved(cfg, device)\n"
    "    for x, y in loader:\n"
    "        x = x.to(device)\n"
    "        loss = (model(x) - y.to(device)).pow(2).mean() + other(x).mean()\n"
    "        loss.backward()\n";

std::vector<std::pair<std::string, int>> findings_of(const char* text, const ProjectIndex& project) {
  auto src = python_source("train.py", text);
  EXPECT_TRUE(src);
  std::vector<std::pair<std::string, int>> out;
  if (!src) return out;
  for (const auto& f : analyze(*src, &project).findings) out.emplace_back(f.id, f.location ? f.location->line : 0);
  return out;
}

TEST(ProjectIndex, AModelBuiltInAnotherFileIsKnownOnTheCpu) {
  const auto project = index_of({k_models, k_train});
  const auto found = findings_of(k_train, project);
  EXPECT_NE(std::find(found.begin(), found.end(), std::pair<std::string, int>{"code.model_not_moved", 7}), found.end());
  for (const auto& [id, line] : found) EXPECT_FALSE(id == "code.model_not_moved" && line == 8) << "moved by its builder";
  // Alone, train.py cannot tell: no finding.
  const auto alone = index_of({k_train});
  for (const auto& [id, line] : findings_of(k_train, alone)) EXPECT_NE(id, "code.model_not_moved");
}

TEST(ProjectIndex, AModelBuiltInAnotherFileAndMovedHereIsFine) {
  const char* moved =
      "import torch\n"
      "from models import build_model\n"
      "\n"
      "\n"
      "def train(cfg, loader, device):\n"
      "    model = build_model(cfg).to(device)\n"
      "    for x, y in loader:\n"
      "        model(x.to(device)).sum().backward()\n";
  const auto project = index_of({k_models, moved});
  for (const auto& [id, line] : findings_of(moved, project)) EXPECT_NE(id, "code.model_not_moved");
}

}  // namespace
}  // namespace gpudoctor::scan
