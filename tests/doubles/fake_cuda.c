/* TEST DOUBLE of libcuda.so.1 (the CUDA driver API): implements the C ABI of cuda.h for the calls
 * gpudoctor makes, with answers scripted by the scenario file (scenario.h). Not NVIDIA code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

typedef int CUresult;
typedef int CUdevice;
typedef struct {
  unsigned char bytes[16];
} CUuuid;
#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NOT_INITIALIZED 3

static int initialised = 0;

CUresult cuGetErrorName(CUresult r, const char** out) {
  switch (r) {
    case 0: *out = "CUDA_SUCCESS"; break;
    case 3: *out = "CUDA_ERROR_NOT_INITIALIZED"; break;
    case 34: *out = "CUDA_ERROR_STUB_LIBRARY"; break;
    case 46: *out = "CUDA_ERROR_DEVICE_UNAVAILABLE"; break;
    case 100: *out = "CUDA_ERROR_NO_DEVICE"; break;
    case 802: *out = "CUDA_ERROR_SYSTEM_NOT_READY"; break;
    case 803: *out = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"; break;
    case 804: *out = "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"; break;
    case 999: *out = "CUDA_ERROR_UNKNOWN"; break;
    default: *out = NULL; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  const char* v = scenario_get("cuda.init");
  scenario_act(v);
  CUresult r = scenario_error(v);
  initialised = r == CUDA_SUCCESS;
  return r;
}

CUresult cuDriverGetVersion(int* out) {
  const char* v = scenario_get("cuda.driver_version");
  *out = v ? atoi(v) : 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* out) {
  if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
  const char* v = scenario_get("cuda.count");
  *out = v ? atoi(v) : 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* out, int ordinal) {
  if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
  *out = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* out, int len, CUdevice d) {
  const char* v = scenario_dev("cuda", (unsigned)d, "name");
  if (v == NULL) return CUDA_ERROR_INVALID_VALUE;
  snprintf(out, (size_t)len, "%s", v);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* out, int attribute, CUdevice d) {
  const char* v = scenario_dev("cuda", (unsigned)d, "cc");
  int major = 0, minor = 0;
  if (v == NULL || sscanf(v, "%d.%d", &major, &minor) != 2) return CUDA_ERROR_INVALID_VALUE;
  if (attribute == 75) *out = major;      /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
  else if (attribute == 76) *out = minor; /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR */
  else return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

/* "uuid=GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", parsed back into 16 bytes. */
CUresult cuDeviceGetUuid_v2(CUuuid* out, CUdevice d) {
  const char* v = scenario_dev("cuda", (unsigned)d, "uuid");
  if (v == NULL || strncmp(v, "GPU-", 4) != 0) return CUDA_ERROR_INVALID_VALUE;
  const char* p = v + 4;
  for (int i = 0; i < 16; ++i) {
    if (*p == '-') ++p;
    unsigned byte = 0;
    if (sscanf(p, "%2x", &byte) != 1) return CUDA_ERROR_INVALID_VALUE;
    out->bytes[i] = (unsigned char)byte;
    p += 2;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t* out, CUdevice d) {
  const char* v = scenario_dev("cuda", (unsigned)d, "memory_mib");
  if (v == NULL) return CUDA_ERROR_INVALID_VALUE;
  *out = (size_t)strtoull(v, NULL, 10) << 20;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char* out, int len, CUdevice d) {
  const char* v = scenario_dev("cuda", (unsigned)d, "pci_bus_id");
  if (v == NULL) return CUDA_ERROR_INVALID_VALUE;
  snprintf(out, (size_t)len, "%s", v);
  return CUDA_SUCCESS;
}
