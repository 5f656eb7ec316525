// The loader's view of each GPU framework build, through probe/loader's model of ld.so: which
// DT_NEEDED entries of the build's GPU libraries nothing would resolve, and which files the CUDA
// runtime's soname resolves to across them (two different libcudart files in one process is the
// "multiple CUDA runtimes" problem). TensorFlow dlopens its CUDA libraries instead of linking them
// (tensorflow/tsl/platform/default/dso_loader.cc: libcudart.so.<major>, libcublas.so.<major>,
// libcudnn.so.<cudnn major>), so those names are resolved as a dlopen from libtensorflow_framework
// would be: that object's RUNPATH, LD_LIBRARY_PATH, the cache, the default directories.
#include <probe/frameworks/toolchain_probe.hpp>

#include <probe/loader/elf_info.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <set>

namespace gpudoctor::probe::frameworks {
namespace {

// The loader tells objects apart by file, not by the path string that found them (elf/dl-load.c
// _dl_map_object_from_fd compares device and inode): "torch/lib/../../nvidia/cuda_runtime/lib/X" through
// torch's RPATH and "nvidia/cuda_runtime/lib/X" through LD_LIBRARY_PATH are one runtime, and so are two
// symlinks to one file. The runtime is named by its real path inside the root.
void note_resolution(const sys::FileSystem& fs, const facts::Resolution& r, std::set<std::string>& unresolved_seen,
                     std::set<std::string>& runtimes, facts::FrameworkBuild& b) {
  if (!r.found()) {
    if (unresolved_seen.insert(r.soname).second) b.unresolved_libraries.push_back(r);
    return;
  }
  if (r.soname.starts_with("libcudart.so") && r.rule != facts::SearchRule::already_loaded) {
    auto entry = fmt::format("{} -> {}", r.soname, fs.real_path(r.path).value_or(r.path));
    if (runtimes.insert(entry).second) b.cuda_runtimes.push_back(entry);
  }
}

std::string major_of(std::string_view version) {
  auto parts = util::split(version, '.');
  return parts.empty() ? std::string() : std::string(parts[0]);
}

}  // namespace

void probe_build_libraries(const sys::FileSystem& fs, const loader::LoaderContext& ctx, facts::FrameworkBuild& b) {
  std::set<std::string> unresolved_seen;
  std::set<std::string> runtimes;
  for (const auto& lib : b.gpu_libraries) {
    auto elf = loader::read_elf_info(fs, lib);
    if (!elf) {
      b.loader_notes.push_back(fmt::format("{}: {}", lib, elf.error().message));
      continue;
    }
    for (const auto& r : loader::resolve_needed_tree(fs, *elf, ctx)) note_resolution(fs, r, unresolved_seen, runtimes, b);
  }
  if (b.framework != facts::Framework::tensorflow || b.kind != facts::BuildKind::cuda) return;
  auto cuda_major = major_of(b.cuda_version);
  auto cudnn_major = major_of(b.cudnn_version);
  if (cuda_major.empty()) return;
  std::string requester;
  for (auto name : {"libtensorflow_framework.so.2", "libtensorflow_framework.so.1", "libtensorflow_framework.so"}) {
    auto path = util::join_path(b.package_dir, name);
    if (fs.exists(path)) {
      requester = path;
      break;
    }
  }
  loader::ElfInfo from;
  if (!requester.empty()) {
    auto elf = loader::read_elf_info(fs, requester);
    if (elf) from = *elf;
    else b.loader_notes.push_back(fmt::format("{}: {}", requester, elf.error().message));
  }
  if (from.path.empty()) from.path = util::join_path(b.package_dir, "libtensorflow_framework.so.2");
  // CUDA 11 runtimes were versioned libcudart.so.11.0; CUDA 12 on, the major alone.
  std::vector<std::string> sonames = {cuda_major == "11" ? "libcudart.so.11.0" : "libcudart.so." + cuda_major,
                                      "libcublas.so." + cuda_major, "libcublasLt.so." + cuda_major};
  if (!cudnn_major.empty()) sonames.push_back("libcudnn.so." + cudnn_major);
  for (const auto& soname : sonames) {
    auto r = loader::resolve_soname(fs, soname, from, ctx);
    r.requested_by = from.path + " (dlopen)";
    note_resolution(fs, r, unresolved_seen, runtimes, b);
  }
}

}  // namespace gpudoctor::probe::frameworks
