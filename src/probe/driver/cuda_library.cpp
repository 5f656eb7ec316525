// The CUDA driver API (libcuda.so.1) asked through dlopen. Types and prototypes mirror cuda.h
// (https://docs.nvidia.com/cuda/cuda-driver-api/); only what is called is declared.
#include <probe/driver/library_probes.hpp>
#include <probe/driver/symbol.hpp>
#include <sys/dynamic_library.hpp>

#include <fmt/format.h>

#include <cstddef>

namespace gpudoctor::probe {
namespace {

// cuda.h: typedef enum cudaError_enum {...} CUresult; typedef int CUdevice;
using CUresult = int;
using CUdevice = int;
// cuda.h: typedef struct CUuuid_st { char bytes[16]; } CUuuid;
struct CUuuid {
  unsigned char bytes[16];
};
constexpr CUresult k_cuda_success = 0;
// cuda.h: CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR.
constexpr int k_attr_cc_major = 75;
constexpr int k_attr_cc_minor = 76;

struct Api {
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*driver_version)(int*) = nullptr;
  CUresult (*device_count)(int*) = nullptr;
  CUresult (*device_get)(CUdevice*, int) = nullptr;
  CUresult (*name)(char*, int, CUdevice) = nullptr;
  CUresult (*attribute)(int*, int, CUdevice) = nullptr;
  CUresult (*uuid)(CUuuid*, CUdevice) = nullptr;
  CUresult (*total_mem)(std::size_t*, CUdevice) = nullptr;
  CUresult (*pci_bus_id)(char*, int, CUdevice) = nullptr;
  CUresult (*error_name)(CUresult, const char**) = nullptr;
};

std::string error_name(const Api& api, CUresult r) {
  const char* s = nullptr;
  if (api.error_name && api.error_name(r, &s) == k_cuda_success && s) return s;
  return fmt::format("CUresult {}", r);
}

template <typename T, typename V>
facts::Known<T> known(const Api& api, std::string_view call, CUresult r, V value) {
  if (r != k_cuda_success) return facts::Known<T>::unknown(fmt::format("{}: {} ({})", call, error_name(api, r), r));
  return facts::Known<T>(static_cast<T>(value));
}

template <typename T>
facts::Known<T> missing(std::string_view symbol) {
  return facts::Known<T>::unknown(fmt::format("{} is not exported by this libcuda", symbol));
}

// "GPU-" and the 16 bytes as 8-4-4-4-12 hex digits, the form NVML and nvidia-smi print.
std::string format_uuid(const CUuuid& u) {
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += fmt::format("{:02x}", u.bytes[i]);
  }
  return s;
}

facts::CudaDevice ask_device(const Api& api, int ordinal) {
  facts::CudaDevice d;
  d.ordinal = ordinal;
  CUdevice dev = 0;
  CUresult r = api.device_get(&dev, ordinal);
  if (r != k_cuda_success) {
    d.name = d.uuid = d.pci_bus_id = known<std::string>(api, "cuDeviceGet", r, "");
    return d;
  }
  if (api.name) {
    char buf[256] = {};
    CUresult rr = api.name(buf, sizeof buf - 1, dev);
    d.name = known<std::string>(api, "cuDeviceGetName", rr, std::string(buf));
  } else {
    d.name = missing<std::string>("cuDeviceGetName");
  }
  if (api.attribute) {
    int major = 0, minor = 0;
    CUresult r1 = api.attribute(&major, k_attr_cc_major, dev);
    CUresult r2 = api.attribute(&minor, k_attr_cc_minor, dev);
    d.cc_major = known<int>(api, "cuDeviceGetAttribute", r1, major);
    d.cc_minor = known<int>(api, "cuDeviceGetAttribute", r2, minor);
  } else {
    d.cc_major = d.cc_minor = missing<int>("cuDeviceGetAttribute");
  }
  if (api.uuid) {
    CUuuid u{};
    CUresult rr = api.uuid(&u, dev);
    d.uuid = known<std::string>(api, "cuDeviceGetUuid", rr, format_uuid(u));
  } else {
    d.uuid = missing<std::string>("cuDeviceGetUuid");
  }
  if (api.total_mem) {
    std::size_t bytes = 0;
    CUresult rr = api.total_mem(&bytes, dev);
    d.total_memory = known<std::uint64_t>(api, "cuDeviceTotalMem", rr, bytes);
  } else {
    d.total_memory = missing<std::uint64_t>("cuDeviceTotalMem");
  }
  if (api.pci_bus_id) {
    char buf[64] = {};
    CUresult rr = api.pci_bus_id(buf, sizeof buf - 1, dev);
    d.pci_bus_id = known<std::string>(api, "cuDeviceGetPCIBusId", rr, std::string(buf));
  } else {
    d.pci_bus_id = missing<std::string>("cuDeviceGetPCIBusId");
  }
  return d;
}

}  // namespace

facts::CudaFacts ask_cuda(const std::string& library) {
  facts::CudaFacts f;
  auto lib = open_library(library, f.library);
  if (!lib) return f;
  Symbols syms(*lib, f.library);
  Api api;
  syms.required(api.init, {"cuInit"});
  syms.required(api.driver_version, {"cuDriverGetVersion"});
  syms.required(api.device_count, {"cuDeviceGetCount"});
  syms.required(api.device_get, {"cuDeviceGet"});
  syms.optional(api.name, {"cuDeviceGetName"});
  syms.optional(api.attribute, {"cuDeviceGetAttribute"});
  // cuda.h maps cuDeviceGetUuid to cuDeviceGetUuid_v2 (CUDA 11.4+) and cuDeviceTotalMem to _v2
  // (64-bit size_t, CUDA 3.2+).
  syms.optional(api.uuid, {"cuDeviceGetUuid_v2", "cuDeviceGetUuid"});
  syms.optional(api.total_mem, {"cuDeviceTotalMem_v2", "cuDeviceTotalMem"});
  syms.optional(api.pci_bus_id, {"cuDeviceGetPCIBusId"});
  syms.optional(api.error_name, {"cuGetErrorName"});
  if (!f.library.missing_required.empty()) return f;

  // cuDriverGetVersion needs no cuInit: it answers even where init fails.
  int version = 0;
  CUresult rv = api.driver_version(&version);
  f.driver_version = known<int>(api, "cuDriverGetVersion", rv, version);
  CUresult r = api.init(0);
  f.init_result = r;
  if (r != k_cuda_success) {
    f.init_error_name = error_name(api, r);
    f.device_count = known<int>(api, "cuInit", r, 0);
    return f;
  }
  int count = 0;
  CUresult rc = api.device_count(&count);
  f.device_count = known<int>(api, "cuDeviceGetCount", rc, count);
  if (rc == k_cuda_success) {
    for (int i = 0; i < count && i < 64; ++i) f.devices.push_back(ask_device(api, i));
  }
  return f;
}

}  // namespace gpudoctor::probe
