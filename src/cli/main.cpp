#include <cli/command.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  try {
    return gpudoctor::cli::run_cli(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gpudoctor: internal error: " << e.what() << '\n';
    return gpudoctor::cli::k_exit_usage;
  }
}
