// gpudoctor __probe-driver nvml|cuda|cudart LIBRARY [WHICH LIBRARY]...: the hidden child half of the
// driver probe. The parent (probe::probe_driver) runs it with a deadline and reads one JSON object
// from stdout, or with several pairs one tagged line per library.
#include <CLI/CLI.hpp>

#include <iostream>

#include <cli/command.hpp>
#include <probe/driver/driver_probe.hpp>

namespace gpudoctor::cli {

CommandRunner setup_probe_driver(CLI::App& sub) {
  auto args = std::make_shared<std::vector<std::string>>();
  sub.add_option("pairs", *args, "nvml, cuda or cudart, then the library to dlopen; repeatable")->required();
  return [args] {
    if (args->size() % 2 != 0) return k_exit_usage;
    if (args->size() == 2) return probe::run_driver_probe_child((*args)[0], (*args)[1], std::cout);
    std::vector<std::pair<std::string, std::string>> asks;
    for (std::size_t i = 0; i + 1 < args->size(); i += 2) asks.emplace_back((*args)[i], (*args)[i + 1]);
    return probe::run_driver_probe_children(asks, std::cout);
  };
}

}  // namespace gpudoctor::cli
