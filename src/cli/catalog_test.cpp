#include <cli/catalog.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

namespace gpudoctor::cli {
namespace {

TEST(Catalog, IdsAreUniqueDottedLowerSnakeAndDocumented) {
  std::set<std::string> seen;
  std::regex id_re("^[a-z0-9_]+(\\.[a-z0-9_]+)+$");
  for (const auto& info : finding_catalog()) {
    std::string id(info.id);
    EXPECT_TRUE(std::regex_match(id, id_re)) << id;
    EXPECT_TRUE(seen.insert(id).second) << "duplicate id " << id;
    EXPECT_FALSE(info.summary.empty()) << id;
    EXPECT_FALSE(info.trigger.empty()) << id;
    EXPECT_FALSE(info.fix.empty()) << id;
  }
}

// docs/checks.md is generated; regenerate with `build/gpudoctor docs checks > docs/checks.md`.
TEST(Catalog, DocsChecksMdIsInStepWithTheRegistry) {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE_DIR) + "/docs/checks.md");
  ASSERT_TRUE(in) << "docs/checks.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), checks_markdown())
      << "docs/checks.md is stale: run `build/gpudoctor docs checks > docs/checks.md`";
}

TEST(Catalog, IssueNamedIdsExist) {
  std::set<std::string> ids;
  for (const auto& info : finding_catalog()) ids.insert(std::string(info.id));
  for (const char* id :
       {"hw.no_gpu", "hw.gpu_no_driver", "hw.nouveau_bound", "hw.vfio_bound", "driver.module_not_loaded",
        "driver.version_mismatch", "driver.uvm_missing", "driver.device_nodes_missing", "driver.device_permission",
        "container.no_gpu", "container.visible_devices_void", "container.no_compute_capability", "wsl.no_gpu_support",
        "wsl.linux_driver_installed", "env.cuda_visible_devices_hidden", "env.cuda_visible_devices_invalid",
        "env.stub_libcuda_on_path", "env.framework_forced_cpu", "amd.no_kfd", "amd.no_render_access",
        "amd.gfx_override", "accel.other_present"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
}

}  // namespace
}  // namespace gpudoctor::cli
