// ROCm: the user-space version, whether amdgpu finished initialising, and the GPU nodes of the KFD
// topology with their gfx target (ollama discover/amd.go reads the same files).
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

namespace gpudoctor::probe {

facts::AmdFacts probe_amd(const sys::FileSystem& fs) {
  facts::AmdFacts a;
  auto version = fs.read_attr("/opt/rocm/.info/version");
  a.rocm_version = version ? facts::Known<std::string>(util::sanitize_utf8(*version))
                           : facts::Known<std::string>::unknown(version.error().message);
  auto init = fs.read_attr("/sys/module/amdgpu/initstate");
  a.amdgpu_initstate = init ? facts::Known<std::string>(util::sanitize_utf8(*init))
                            : facts::Known<std::string>::unknown(init.error().message);
  constexpr std::string_view k_nodes = "/sys/class/kfd/kfd/topology/nodes";
  auto nodes = fs.list_dir(k_nodes);
  if (!nodes) return a;
  for (const auto& n : *nodes) {
    auto index = util::parse_uint(n.name);
    if (!index || *index > 4096) continue;
    auto props = fs.read_text(util::join_path(k_nodes, n.name) + "/properties", 64 * 1024);
    if (!props) continue;
    facts::KfdNode node;
    node.node = static_cast<int>(*index);
    std::uint64_t simd_count = 0;
    for (auto line : util::lines(*props)) {
      auto f = util::split_ws(line);
      if (f.size() != 2) continue;
      auto v = util::parse_uint(f[1]);
      if (!v) continue;
      if (f[0] == "simd_count") simd_count = *v;
      else if (f[0] == "gfx_target_version") node.gfx_target_version = static_cast<std::uint32_t>(*v);
      else if (f[0] == "vendor_id") node.vendor_id = static_cast<std::uint32_t>(*v);
      else if (f[0] == "device_id") node.device_id = static_cast<std::uint32_t>(*v);
    }
    if (simd_count > 0) a.kfd_gpus.push_back(node);  // CPU nodes have simd_count 0
  }
  return a;
}

}  // namespace gpudoctor::probe
