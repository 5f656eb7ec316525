// One reader per framework: given the import package's directory (".../site-packages/torch") and
// the distributions installed beside it, what the build says about itself in its files. Readers
// never import and never judge: "cuda = None" is recorded, not called a problem.
#pragma once

#include <string>
#include <vector>

#include <facts/framework_facts.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe::frameworks {

struct SiteContext {
  std::string site_dir;  // the sys.path entry holding the package
  const std::vector<facts::Distribution>* distributions = nullptr;  // of that site dir
  const facts::PythonEnvironment* env = nullptr;  // the environment (its conda packages); may be null
};

void read_torch(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b);
void read_tensorflow(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b);
void read_jax(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b);
void read_onnxruntime(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b);
void read_paddle(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b);
void read_cupy(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b);
void read_tensorrt(const sys::FileSystem& fs, const SiteContext& site, facts::FrameworkBuild& b);

// Fills b.kernel_images from the fatbinary headers of `libraries` (bounded ranged reads through `fs`,
// payloads never decompressed). A library that cannot be read is named in b.evidence; when none can be
// read the fact is unknown with every reason.
void read_kernel_images(const sys::FileSystem& fs, const std::vector<std::string>& libraries, facts::FrameworkBuild& b);

// The conda package of this name in the environment of `site`, or nullptr (not conda, or not listed).
const facts::CondaPackage* find_conda_package(const SiteContext& site, std::string_view name);

// The distribution in `site` with this normalised name, or nullptr.
const facts::Distribution* find_distribution(const SiteContext& site, std::string_view name);
// "nvidia-cudnn-cu12 9.1.0.70" for each nvidia-* distribution, and the nvidia/*/lib directories.
std::vector<std::string> nvidia_wheels(const sys::FileSystem& fs, const SiteContext& site);

}  // namespace gpudoctor::probe::frameworks
