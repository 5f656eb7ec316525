// The few C types and constants of NVML (nvml.h, NVML API version 12/13,
// https://docs.nvidia.com/deploy/nvml-api/) that gpudoctor calls with, mirrored so that no vendor
// header is needed at build time. Shared by the one-shot driver probe (nvml_library.cpp) and the
// sampler that runs while a job is watched (nvml_sampler.cpp).
#pragma once

namespace gpudoctor::probe::nvml_abi {

// nvml.h: typedef enum nvmlReturn_enum {...} nvmlReturn_t; typedef struct nvmlDevice_st* nvmlDevice_t;
using nvmlReturn_t = int;
using nvmlDevice_t = void*;
constexpr nvmlReturn_t k_nvml_success = 0;
constexpr nvmlReturn_t k_nvml_not_supported = 3;
constexpr nvmlReturn_t k_nvml_insufficient_size = 7;

// nvml.h: nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v3/_v2. The unversioned call fills the
// older layout, whose first 16 bytes (then busId) sit where busIdLegacy is.
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pciDeviceId;
  unsigned pciSubSystemId;
  char busId[32];
};
// nvml.h: nvmlMemory_t (v1).
struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
// nvml.h: nvmlUtilization_t.
struct nvmlUtilization_t {
  unsigned gpu;
  unsigned memory;
};
// nvml.h: nvmlProcessInfo_v1_t (unversioned call) and nvmlProcessInfo_v2_t (_v2 and _v3 calls).
struct nvmlProcessInfo_v1_t {
  unsigned pid;
  unsigned long long usedGpuMemory;
};
struct nvmlProcessInfo_v2_t {
  unsigned pid;
  unsigned long long usedGpuMemory;
  unsigned gpuInstanceId;
  unsigned computeInstanceId;
};
// nvml.h: NVML_VALUE_NOT_AVAILABLE for usedGpuMemory (e.g. under Windows WDDM or some containers).
constexpr unsigned long long k_value_not_available = ~0ULL;
// nvml.h constants used as arguments.
constexpr int k_memory_error_type_uncorrected = 1;  // NVML_MEMORY_ERROR_TYPE_UNCORRECTED
constexpr int k_volatile_ecc = 0;                   // NVML_VOLATILE_ECC
constexpr int k_aggregate_ecc = 1;                  // NVML_AGGREGATE_ECC
constexpr int k_temperature_gpu = 0;                // NVML_TEMPERATURE_GPU
constexpr unsigned k_nvlink_max_links = 18;         // NVML_NVLINK_MAX_LINKS (NVML 12+)
constexpr unsigned k_max_processes = 256;

// nvml.h: nvmlProcessUtilizationSample_t, filled by nvmlDeviceGetProcessUtilization.
struct nvmlProcessUtilizationSample_t {
  unsigned pid;
  unsigned long long timeStamp;  // CPU timestamp in microseconds
  unsigned smUtil;
  unsigned memUtil;
  unsigned encUtil;
  unsigned decUtil;
};
constexpr nvmlReturn_t k_nvml_not_found = 6;

}  // namespace gpudoctor::probe::nvml_abi
