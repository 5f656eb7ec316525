// The CUDA runtime (libcudart.so.N) asked through dlopen: the same first calls a framework makes,
// so its error is the one the user saw. Prototypes mirror cuda_runtime_api.h
// (https://docs.nvidia.com/cuda/cuda-runtime-api/).
#include <probe/driver/library_probes.hpp>
#include <probe/driver/symbol.hpp>
#include <sys/dynamic_library.hpp>

#include <fmt/format.h>

namespace gpudoctor::probe {
namespace {

// driver_types.h: typedef enum cudaError cudaError_t;
using cudaError_t = int;
constexpr cudaError_t k_cuda_success = 0;

struct Api {
  cudaError_t (*runtime_version)(int*) = nullptr;
  cudaError_t (*driver_version)(int*) = nullptr;
  cudaError_t (*device_count)(int*) = nullptr;
  const char* (*error_name)(cudaError_t) = nullptr;
};

std::string error_name(const Api& api, cudaError_t r) {
  const char* s = api.error_name ? api.error_name(r) : nullptr;
  return s ? std::string(s) : fmt::format("cudaError_t {}", r);
}

}  // namespace

facts::CudartFacts ask_cudart(const std::string& library) {
  facts::CudartFacts f;
  auto lib = open_library(library, f.library);
  if (!lib) return f;
  Symbols syms(*lib, f.library);
  Api api;
  syms.required(api.runtime_version, {"cudaRuntimeGetVersion"});
  syms.required(api.device_count, {"cudaGetDeviceCount"});
  syms.optional(api.driver_version, {"cudaDriverGetVersion"});
  syms.optional(api.error_name, {"cudaGetErrorName"});
  if (!f.library.missing_required.empty()) return f;

  int version = 0;
  cudaError_t r = api.runtime_version(&version);
  f.runtime_version = r == k_cuda_success
                          ? facts::Known<int>(version)
                          : facts::Known<int>::unknown(fmt::format("cudaRuntimeGetVersion: {} ({})", error_name(api, r), r));
  if (api.driver_version) {
    // 0 when no driver is installed (cudaDriverGetVersion docs).
    int dv = 0;
    cudaError_t rd = api.driver_version(&dv);
    f.driver_version = rd == k_cuda_success
                           ? facts::Known<int>(dv)
                           : facts::Known<int>::unknown(fmt::format("cudaDriverGetVersion: {} ({})", error_name(api, rd), rd));
  } else {
    f.driver_version = facts::Known<int>::unknown("cudaDriverGetVersion is not exported by this libcudart");
  }
  int count = 0;
  cudaError_t rc = api.device_count(&count);
  f.device_count_result = rc;
  f.device_count_error = error_name(api, rc);
  f.device_count = rc == k_cuda_success ? facts::Known<int>(count)
                                        : facts::Known<int>::unknown(fmt::format("cudaGetDeviceCount: {} ({})",
                                                                                 f.device_count_error, rc));
  return f;
}

}  // namespace gpudoctor::probe
