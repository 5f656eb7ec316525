// Deterministic fuzzing of the ELF and fatbin readers (and the loader's ELF reader) with truncations
// and byte flips of the committed fixtures, served from memory. Under the ASan+UBSan build this is
// what catches a read past a buffer; in any build a failure must be an Error with a message.
// tests/fuzz/fatbin_fuzzer.cpp is the coverage-guided libFuzzer version of the same harness.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include <probe/fatbin/fatbin_reader.hpp>
#include <probe/loader/elf_info.hpp>
#include <sys/memory_file_system.hpp>

namespace gpudoctor::probe::fatbin {
namespace {

const std::string k_fixtures = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/fatbin";

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Returns true when the bytes parsed as a fatbin-bearing ELF file.
bool exercise(const std::string& bytes) {
  auto fs = sys::make_memory_file_system({{"/f.so", bytes}});
  auto s = read_fatbin(*fs, "/f.so");
  if (s) {
    std::uint64_t total = 0;
    for (const auto& e : s->entries) total += e.payload_size;
    EXPECT_LE(total, bytes.size());
  } else {
    EXPECT_FALSE(s.error().message.empty());
  }
  auto info = loader::read_elf_info(*fs, "/f.so");
  if (!info) {
    EXPECT_FALSE(info.error().message.empty());
  }
  return s.has_value();
}

TEST(FatbinMutation, TruncationsAndByteFlipsNeverCrash) {
  std::mt19937 rng(20240601);
  for (const char* name : {"multi_arch.so", "compressed_all.so", "arch_variants.so", "relocatable.o"}) {
    SCOPED_TRACE(name);
    std::string bytes = slurp(k_fixtures + "/" + name);
    ASSERT_GT(bytes.size(), 1000u) << "fixture missing";
    ASSERT_TRUE(exercise(bytes));
    std::size_t ok_prefixes = 0;
    for (std::size_t n = 0; n < bytes.size(); n += (n < 4096 ? 1 : 61)) ok_prefixes += exercise(bytes.substr(0, n)) ? 1 : 0;
    // The section headers sit at the end of the file: no strict prefix can be read whole.
    EXPECT_EQ(ok_prefixes, 0u);
    for (int i = 0; i < 2500; ++i) {
      std::string m = bytes;
      int flips = 1 + static_cast<int>(rng() % 8);
      for (int k = 0; k < flips; ++k) {
        // Half the flips land in the first 4 KiB (ELF and program headers, the start of the fatbin).
        std::size_t at = (rng() % 2) ? rng() % std::min<std::size_t>(4096, m.size()) : rng() % m.size();
        m[at] = static_cast<char>(m[at] ^ (1 << (rng() % 8)));
      }
      exercise(m);
    }
  }
}

TEST(FatbinMutation, RandomSectionBytes) {
  std::mt19937 rng(7);
  std::string magic("\x50\xed\x55\xba\x01\x00\x10\x00", 8);
  for (int i = 0; i < 20000; ++i) {
    std::string b(static_cast<std::size_t>(rng() % 512), '\0');
    for (auto& c : b) c = static_cast<char>(rng() % 4 == 0 ? rng() : 0);
    if (b.size() >= 8 && rng() % 2) b.replace(0, 8, magic);
    auto s = parse_fatbin_section(b);
    if (!s) {
      EXPECT_FALSE(s.error().message.empty());
    }
  }
}

}  // namespace
}  // namespace gpudoctor::probe::fatbin
