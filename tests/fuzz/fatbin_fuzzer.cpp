// libFuzzer harness for the ELF, fatbin and ld.so.cache readers: the input is served as one file of an
// in-memory file system. Build and run with tests/fuzz/run.sh (clang, -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <string>

#include <probe/fatbin/fatbin_reader.hpp>
#include <probe/loader/elf_info.hpp>
#include <probe/loader/ld_cache.hpp>
#include <sys/memory_file_system.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  auto fs = sys::make_memory_file_system({{"/f", bytes}});
  (void)probe::fatbin::read_fatbin(*fs, "/f");
  (void)probe::loader::read_elf_info(*fs, "/f");
  (void)probe::fatbin::parse_fatbin_section(bytes);
  (void)probe::loader::parse_ld_cache(bytes);
  return 0;
}
