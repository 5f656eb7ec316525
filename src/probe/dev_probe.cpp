// GPU and accelerator device nodes under /dev, with type, mode and owner, so checks can tell
// "missing" from "present but not openable by this uid".
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <array>

namespace gpudoctor::probe {
namespace {

// Top-level /dev names (prefix match) that belong to a GPU or accelerator stack.
constexpr std::array<std::string_view, 7> k_dev_prefixes = {"nvidia", "kfd", "dxg", "accel", "neuron",
                                                            "davinci", "devmm_svm"};
// Directories whose entries are listed too.
constexpr std::array<std::string_view, 5> k_dev_dirs = {"/dev/nvidia-caps", "/dev/dri", "/dev/accel", "/dev/vfio",
                                                        "/dev/nvidia-caps-imex-channels"};

facts::NodeType node_type(sys::FileType t) {
  switch (t) {
    case sys::FileType::char_device: return facts::NodeType::char_device;
    case sys::FileType::block_device: return facts::NodeType::block_device;
    case sys::FileType::regular: return facts::NodeType::regular;
    case sys::FileType::directory: return facts::NodeType::directory;
    default: return facts::NodeType::other;
  }
}

void add_node(const sys::FileSystem& fs, const std::string& path, std::vector<facts::DeviceNode>& out) {
  auto st = fs.stat(path);
  if (!st) return;  // a dangling link is no device
  if (st->type == sys::FileType::directory) return;
  out.push_back({util::sanitize_utf8(path), node_type(st->type), st->mode, st->uid, st->gid});
}

}  // namespace

facts::DevFacts probe_dev(const sys::FileSystem& fs) {
  facts::DevFacts out;
  auto entries = fs.list_dir("/dev");
  if (!entries) {
    out.nodes = facts::Known<std::vector<facts::DeviceNode>>::unknown(entries.error().message);
    return out;
  }
  std::vector<facts::DeviceNode> nodes;
  for (const auto& e : *entries) {
    for (auto prefix : k_dev_prefixes) {
      if (e.name.starts_with(prefix)) {
        add_node(fs, "/dev/" + e.name, nodes);
        break;
      }
    }
  }
  for (auto dir : k_dev_dirs) {
    auto sub = fs.list_dir(dir);
    if (!sub) continue;
    for (const auto& e : *sub) add_node(fs, util::join_path(dir, e.name), nodes);
  }
  out.nodes = std::move(nodes);
  return out;
}

}  // namespace gpudoctor::probe
