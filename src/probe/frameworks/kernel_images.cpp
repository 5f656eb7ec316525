// The kernels a framework build carries, for the arch checks: every CUDA library of the build is read
// with probe/fatbin (headers only), and each summary is collapsed to its distinct entries, because a
// library like libtorch_cuda.so repeats the same architecture list in thousands of fatbin containers.
#include <probe/frameworks/framework_probe.hpp>

#include <probe/fatbin/fatbin_reader.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

namespace gpudoctor::probe::frameworks {

void read_kernel_images(const sys::FileSystem& fs, const std::vector<std::string>& libraries,
                        facts::FrameworkBuild& b) {
  std::vector<facts::FatbinSummary> images;
  std::vector<std::string> failures;
  for (const auto& lib : libraries) {
    auto summary = fatbin::read_fatbin(fs, lib);
    if (!summary) {
      failures.push_back(fmt::format("{}: {}", lib, summary.error().message));
      continue;
    }
    images.push_back(facts::distinct_entries(*summary));
  }
  if (images.empty()) {
    b.kernel_images = facts::Known<std::vector<facts::FatbinSummary>>::unknown(
        failures.empty() ? "no CUDA library to read" : util::join(failures, "; "));
    return;
  }
  for (const auto& f : failures) b.evidence.push_back("fatbin not readable: " + f);
  b.kernel_images = std::move(images);
}

}  // namespace gpudoctor::probe::frameworks
