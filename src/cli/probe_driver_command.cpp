// gpudoctor __probe-driver nvml|cuda|cudart LIBRARY: the hidden child half of the driver probe.
// The parent (probe::probe_driver) runs it with a deadline and reads one JSON object from stdout.
#include <CLI/CLI.hpp>

#include <iostream>

#include <cli/command.hpp>
#include <probe/driver/driver_probe.hpp>

namespace gpudoctor::cli {

CommandRunner setup_probe_driver(CLI::App& sub) {
  auto which = std::make_shared<std::string>();
  auto library = std::make_shared<std::string>();
  sub.add_option("which", *which, "nvml, cuda or cudart")->required()->check(CLI::IsMember({"nvml", "cuda", "cudart"}));
  sub.add_option("library", *library, "The library to dlopen")->required();
  return [which, library] { return probe::run_driver_probe_child(*which, *library, std::cout); };
}

}  // namespace gpudoctor::cli
