/* TEST DOUBLE of libcudart.so (the CUDA runtime): the four calls gpudoctor makes, answers scripted
 * by the scenario file (scenario.h). Not NVIDIA code. */
#include <stdlib.h>

#include "scenario.h"

typedef int cudaError_t;

static int number(const char* key, int fallback) {
  const char* v = scenario_get(key);
  return v ? atoi(v) : fallback;
}

cudaError_t cudaRuntimeGetVersion(int* out) {
  *out = number("cudart.runtime_version", 12040);
  return 0;
}

cudaError_t cudaDriverGetVersion(int* out) {
  *out = number("cudart.driver_version", 0);
  return 0;
}

cudaError_t cudaGetDeviceCount(int* out) {
  const char* v = scenario_get("cudart.device_count");
  if (scenario_error(v)) return scenario_error(v);
  *out = v ? atoi(v) : 0;
  return 0;
}

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case 0: return "cudaSuccess";
    case 34: return "cudaErrorStubLibrary";
    case 35: return "cudaErrorInsufficientDriver";
    case 100: return "cudaErrorNoDevice";
    default: return "cudaErrorUnknown";
  }
}
