// The in-process half of the driver probe: load one vendor library with dlopen and ask it. Only the
// `gpudoctor __probe-driver` child calls these (src/probe/driver/driver_probe.hpp runs it), because
// a vendor library may hang or crash its caller.
//
// No vendor header is needed at build time: each file mirrors the few C types and prototypes it
// calls, naming the header they come from. Versioned symbols are looked up first (nvmlInit_v2 before
// nvmlInit), as the headers' own #defines map the plain names. A missing required symbol stops the
// probe and is reported; a missing optional one leaves its facts unknown.
#pragma once

#include <string>

#include <facts/driver_facts.hpp>

namespace gpudoctor::probe {

facts::NvmlFacts ask_nvml(const std::string& library);
facts::CudaFacts ask_cuda(const std::string& library);
facts::CudartFacts ask_cudart(const std::string& library);

}  // namespace gpudoctor::probe
