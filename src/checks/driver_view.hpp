// DriverView: derived answers over DriverFacts that several driver-layer checks need ("the GPUs
// with their compute capability, from NVML or else from the PCI id", "the driver version, from NVML
// or else the kernel module"). Pure: computed from the facts only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <checks/driver_knowledge.hpp>
#include <facts/facts.hpp>

namespace gpudoctor::checks {

// One NVIDIA GPU as the checks see it: NVML's device when NVML listed it, else the PCI function.
struct GpuView {
  const facts::NvmlDevice* nvml = nullptr;
  const facts::PciDevice* pci = nullptr;
  std::string label;  // "GPU 0 NVIDIA A100-SXM4-80GB (00000000:01:00.0)"
  std::string name;
  std::optional<ComputeCapability> cc;
  std::string cc_source;  // "NVML", "PCI id 10de:2684", "pci.ids chip name"
  std::uint32_t device_id = 0;
};

class DriverView {
 public:
  explicit DriverView(const facts::Facts& f);

  const std::vector<GpuView>& gpus() const { return m_gpus; }
  // "550.54.14" from NVML, else /proc/driver/nvidia/version; "" when neither says.
  const std::string& driver_version() const { return m_driver_version; }
  const std::string& driver_version_source() const { return m_driver_version_source; }
  int driver_branch() const;  // 550; 0 when unknown

 private:
  std::vector<GpuView> m_gpus;
  std::string m_driver_version;
  std::string m_driver_version_source;
};

// "4.0 GiB"
std::string format_bytes(std::uint64_t bytes);

}  // namespace gpudoctor::checks
