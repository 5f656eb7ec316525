// gpudoctor __sample-nvml LIBRARY: the hidden helper that keeps NVML open while `run` or `watch`
// samples a job, answering one JSON line per request line (probe/driver/nvml_sampler.hpp).
#include <CLI/CLI.hpp>

#include <iostream>

#include <cli/command.hpp>
#include <probe/driver/nvml_sampler.hpp>

namespace gpudoctor::cli {

CommandRunner setup_sample_nvml(CLI::App& sub) {
  auto library = std::make_shared<std::string>();
  sub.add_option("library", *library, "The NVML library to dlopen")->required();
  return [library] { return probe::run_nvml_sampler_child(*library, std::cin, std::cout); };
}

}  // namespace gpudoctor::cli
