/* TEST DOUBLE of libnvidia-ml.so.1 (NVML): implements the C ABI of nvml.h for the calls gpudoctor
 * makes, with answers scripted by the scenario file (scenario.h). Not NVIDIA code; never install.
 * Built without FAKE_NVML_ALL_SYMBOLS it lacks nvmlDeviceGetCount* (a required symbol). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "scenario.h"

typedef int nvmlReturn_t;
typedef void* nvmlDevice_t;
#define NVML_SUCCESS 0
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7

typedef struct {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;
typedef struct {
  unsigned long long total, free, used;
} nvmlMemory_t;
typedef struct {
  unsigned gpu, memory;
} nvmlUtilization_t;
typedef struct {
  unsigned pid;
  unsigned long long usedGpuMemory;
  unsigned gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_v2_t;

/* A device handle is its index + 1 (NULL stays invalid). MIG handles are 1000 + slot. */
static unsigned index_of(nvmlDevice_t d) { return (unsigned)((size_t)d - 1); }

const char* nvmlErrorString(nvmlReturn_t r) {
  switch (r) {
    case 0: return "Success";
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 6: return "Not Found";
    case 7: return "Insufficient Size";
    case 9: return "Driver Not Loaded";
    case 12: return "NVML Shared Library Not Found";
    case 15: return "GPU is lost";
    case 17: return "GPU access blocked by the operating system";
    case 18: return "Driver/library version mismatch";
    case 999: return "Unknown Error";
    default: return "Unknown Error";
  }
}

static nvmlReturn_t init(void) {
  const char* v = scenario_get("nvml.init");
  scenario_act(v);
  return scenario_error(v);
}
nvmlReturn_t nvmlInit_v2(void) { return init(); }
nvmlReturn_t nvmlInit(void) { return init(); }
nvmlReturn_t nvmlShutdown(void) { return NVML_SUCCESS; }

static nvmlReturn_t copy_string(const char* v, char* out, unsigned len) {
  if (v == NULL) return NVML_ERROR_NOT_SUPPORTED;
  if (scenario_error(v)) return scenario_error(v);
  if (strlen(v) + 1 > len) return NVML_ERROR_INSUFFICIENT_SIZE;
  strcpy(out, v);
  return NVML_SUCCESS;
}

/* Reads up to N unsigned numbers (any base) from the device field into OUT. */
static nvmlReturn_t numbers(nvmlDevice_t d, const char* field, unsigned long long* out, int n) {
  const char* v = scenario_dev("gpu", index_of(d), field);
  if (v == NULL) return NVML_ERROR_NOT_SUPPORTED;
  if (scenario_error(v)) return scenario_error(v);
  scenario_act(v); /* "hang" / "crash": a driver that stops answering mid-run */
  char* end = (char*)v;
  for (int i = 0; i < n; ++i) out[i] = strtoull(end, &end, 0);
  return NVML_SUCCESS;
}

static nvmlReturn_t one_uint(nvmlDevice_t d, const char* field, unsigned* out) {
  unsigned long long v = 0;
  nvmlReturn_t r = numbers(d, field, &v, 1);
  if (r == NVML_SUCCESS) *out = (unsigned)v;
  return r;
}

nvmlReturn_t nvmlSystemGetDriverVersion(char* out, unsigned len) {
  return copy_string(scenario_get("nvml.driver_version"), out, len);
}
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* out) {
  const char* v = scenario_get("nvml.cuda_driver_version");
  if (v == NULL) return NVML_ERROR_NOT_SUPPORTED;
  if (scenario_error(v)) return scenario_error(v);
  *out = atoi(v);
  return NVML_SUCCESS;
}

#ifdef FAKE_NVML_ALL_SYMBOLS
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* out) {
  const char* v = scenario_get("nvml.count");
  if (scenario_error(v)) return scenario_error(v);
  *out = v ? (unsigned)atoi(v) : 0;
  return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t* out) {
  const char* v = scenario_dev("gpu", index, "handle");
  if (scenario_error(v)) return scenario_error(v);
  *out = (nvmlDevice_t)(size_t)(index + 1);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* out, unsigned len) {
  return copy_string(scenario_dev("gpu", index_of(d), "name"), out, len);
}
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* out, unsigned len) {
  return copy_string(scenario_dev("gpu", index_of(d), "uuid"), out, len);
}
nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* pci) {
  memset(pci, 0, sizeof *pci);
  nvmlReturn_t r = copy_string(scenario_dev("gpu", index_of(d), "pci_bus_id"), pci->busId, sizeof pci->busId);
  if (r != NVML_SUCCESS) return r;
  snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%.15s", pci->busId + 4);
  unsigned id = 0;
  if (one_uint(d, "pci_device_id", &id) == NVML_SUCCESS) pci->pciDeviceId = id;
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int* major, int* minor) {
  const char* v = scenario_dev("gpu", index_of(d), "cc");
  if (v == NULL) return NVML_ERROR_NOT_SUPPORTED;
  if (scenario_error(v)) return scenario_error(v);
  if (sscanf(v, "%d.%d", major, minor) != 2) return NVML_ERROR_NOT_SUPPORTED;
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t d, unsigned* out) { return one_uint(d, "arch", out); }
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* m) {
  unsigned long long v[3] = {0, 0, 0};
  nvmlReturn_t r = numbers(d, "memory", v, 3); /* total used free, MiB */
  if (r != NVML_SUCCESS) return r;
  m->total = v[0] << 20;
  m->used = v[1] << 20;
  m->free = v[2] << 20;
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t* u) {
  unsigned long long v[2] = {0, 0};
  nvmlReturn_t r = numbers(d, "utilization", v, 2);
  if (r != NVML_SUCCESS) return r;
  u->gpu = (unsigned)v[0];
  u->memory = (unsigned)v[1];
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d, int* out) { return one_uint(d, "compute_mode", (unsigned*)out); }
nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned* current, unsigned* pending) {
  unsigned long long v[2] = {0, 0};
  nvmlReturn_t r = numbers(d, "mig", v, 2);
  if (r != NVML_SUCCESS) return r;
  *current = (unsigned)v[0];
  *pending = (unsigned)v[1];
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t d, unsigned* out) {
  unsigned v = 7;
  one_uint(d, "mig_max", &v);
  *out = v;
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t d, unsigned slot, nvmlDevice_t* out) {
  unsigned count = 0;
  one_uint(d, "mig_instances", &count);
  if (slot >= count) return NVML_ERROR_NOT_FOUND;
  *out = (nvmlDevice_t)(size_t)(1000 + slot);
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int* out) { return one_uint(d, "persistence", (unsigned*)out); }
nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, int* current, int* pending) {
  unsigned long long v[2] = {0, 0};
  nvmlReturn_t r = numbers(d, "ecc", v, 2);
  if (r != NVML_SUCCESS) return r;
  *current = (int)v[0];
  *pending = (int)v[1];
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int error_type, int counter, unsigned long long* out) {
  if (error_type != 1) return NVML_ERROR_INVALID_ARGUMENT; /* NVML_MEMORY_ERROR_TYPE_UNCORRECTED */
  unsigned long long v[2] = {0, 0};
  nvmlReturn_t r = numbers(d, "ecc_uncorrectable", v, 2); /* volatile aggregate */
  if (r != NVML_SUCCESS) return r;
  *out = counter == 0 ? v[0] : v[1];
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d, int* out) {
  return one_uint(d, "retired_pending", (unsigned*)out);
}
nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned* corr, unsigned* unc, unsigned* pending,
                                       unsigned* failed) {
  unsigned long long v[4] = {0, 0, 0, 0};
  nvmlReturn_t r = numbers(d, "remapped_rows", v, 4);
  if (r != NVML_SUCCESS) return r;
  *corr = (unsigned)v[0];
  *unc = (unsigned)v[1];
  *pending = (unsigned)v[2];
  *failed = (unsigned)v[3];
  return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long* out) {
  return numbers(d, "clock_event_reasons", out, 1);
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned* out) { return one_uint(d, "pcie_gen", out); }
nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned* out) { return one_uint(d, "pcie_gen_max", out); }
nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned* out) { return one_uint(d, "pcie_width", out); }
nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned* out) { return one_uint(d, "pcie_width_max", out); }
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned* out) {
  if (sensor != 0) return NVML_ERROR_INVALID_ARGUMENT;
  return one_uint(d, "temperature", out);
}
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned* out) { return one_uint(d, "power_mw", out); }
nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned* out) { return one_uint(d, "power_limit_mw", out); }

/* The first process (lowest pid) whose parent is our parent, other than us and other gpudoctor
 * processes: under `gpudoctor run` that is the watched command, a sibling of the NVML sampling
 * helper. 0 when there is none. */
static unsigned sibling_pid(void) {
  unsigned best = 0;
  DIR* proc = opendir("/proc");
  if (proc == NULL) return 0;
  struct dirent* e;
  while ((e = readdir(proc)) != NULL) {
    char* end;
    unsigned long pid = strtoul(e->d_name, &end, 10);
    if (*end != 0 || pid == 0 || pid == (unsigned long)getpid()) continue;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%lu/stat", pid);
    FILE* f = fopen(path, "r");
    if (f == NULL) continue;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char* close = strrchr(buf, ')');
    char* open = strchr(buf, '(');
    if (close == NULL || open == NULL) continue;
    char state;
    int ppid;
    if (sscanf(close + 1, " %c %d", &state, &ppid) != 2 || ppid != (int)getppid() || state == 'Z') continue;
    if (strncmp(open + 1, "gpudoctor", 9) == 0) continue;
    if (best == 0 || pid < best) best = (unsigned)pid;
  }
  closedir(proc);
  return best;
}

/* Parses one "PID:N" item of a list; PID may be "parent" (the caller's parent: a process whose
 * /proc/PID/cmdline exists while the caller runs) or "sibling" (sibling_pid()). Returns the
 * position after the item, or NULL at the end of the list. */
static const char* list_item(const char* p, unsigned* pid, unsigned long long* value) {
  if (*p == 0) return NULL;
  if (strncmp(p, "parent", 6) == 0) {
    *pid = (unsigned)getppid();
    p += 6;
  } else if (strncmp(p, "sibling", 7) == 0) {
    *pid = sibling_pid();
    p += 7;
  } else {
    const char* start = p;
    *pid = (unsigned)strtoul(start, (char**)&p, 10);
    if (p == start) return NULL; /* not a list item: the list ends here */
  }
  *value = 0;
  if (*p == ':') *value = strtoull(p + 1, (char**)&p, 10);
  if (*p == ',') ++p;
  return p;
}

/* "processes=PID:MIB,PID:MIB" (see list_item for PID). */
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned* count, nvmlProcessInfo_v2_t* out) {
  const char* v = scenario_dev("gpu", index_of(d), "processes");
  if (v == NULL) {
    *count = 0;
    return NVML_SUCCESS;
  }
  if (scenario_error(v)) return scenario_error(v);
  unsigned n = 0, pid;
  unsigned long long mib;
  const char* p = v;
  while ((p = list_item(p, &pid, &mib)) != NULL) {
    if (pid == 0) continue; /* "sibling" when there is none */
    if (n >= *count) return NVML_ERROR_INSUFFICIENT_SIZE;
    out[n].pid = pid;
    out[n].usedGpuMemory = mib << 20;
    out[n].gpuInstanceId = out[n].computeInstanceId = 0xFFFFFFFFu;
    ++n;
  }
  *count = n;
  return NVML_SUCCESS;
}

typedef struct {
  unsigned pid;
  unsigned long long timeStamp;
  unsigned smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;

/* "process_sm=PID:PERCENT,...": one sample per process, stamped now (so always newer than
 * lastSeen). With a NULL buffer the count is answered with INSUFFICIENT_SIZE, as real NVML does. */
nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t d, nvmlProcessUtilizationSample_t* out, unsigned* count,
                                             unsigned long long last_seen) {
  (void)last_seen;
  const char* v = scenario_dev("gpu", index_of(d), "process_sm");
  if (v == NULL) return NVML_ERROR_NOT_SUPPORTED;
  if (scenario_error(v)) return scenario_error(v);
  scenario_act(v); /* only the run layer's sampler asks this: "hang"/"crash" fail it alone */
  struct timeval tv;
  gettimeofday(&tv, NULL);
  unsigned long long now = (unsigned long long)tv.tv_sec * 1000000ULL + (unsigned long long)tv.tv_usec;
  unsigned n = 0, pid;
  unsigned long long sm;
  const char* p = v;
  while ((p = list_item(p, &pid, &sm)) != NULL) {
    if (pid == 0) continue;
    if (out != NULL && n < *count) {
      out[n].pid = pid;
      out[n].timeStamp = now;
      out[n].smUtil = (unsigned)sm;
      out[n].memUtil = out[n].encUtil = out[n].decUtil = 0;
    }
    ++n;
  }
  if (n == 0) return NVML_ERROR_NOT_FOUND;
  if (out == NULL || n > *count) {
    *count = n;
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  *count = n;
  return NVML_SUCCESS;
}

/* "nvlink=1,1,0,1": the state of each link. */
nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned link, int* active) {
  const char* v = scenario_dev("gpu", index_of(d), "nvlink");
  if (v == NULL) return NVML_ERROR_NOT_SUPPORTED;
  size_t n = strlen(v);
  size_t at = (size_t)link * 2;
  if (at >= n) return NVML_ERROR_INVALID_ARGUMENT;
  *active = v[at] == '1';
  return NVML_SUCCESS;
}
