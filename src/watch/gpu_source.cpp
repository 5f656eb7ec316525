#include <watch/gpu_source.hpp>

namespace gpudoctor::watch {
namespace {

class UnavailableGpuSource final : public GpuSource {
 public:
  explicit UnavailableGpuSource(std::string why) : m_why(std::move(why)) {}
  GpuReading read(std::span<const int> /*pids*/) override { return {}; }
  std::string description() const override { return m_why; }

 private:
  std::string m_why;
};

}  // namespace

std::unique_ptr<GpuSource> make_unavailable_gpu_source(std::string why) {
  return std::make_unique<UnavailableGpuSource>(std::move(why));
}

}  // namespace gpudoctor::watch
