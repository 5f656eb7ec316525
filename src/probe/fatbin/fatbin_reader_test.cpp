// The fatbin reader on the committed fixtures (tests/fixtures/fatbin, built from scale.cu by build.sh),
// on the same targets built again by nvcc where it is installed, and on the toolkit's libcublasLt.
#include <probe/fatbin/fatbin_reader.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <checks/kernel_support.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe::fatbin {
namespace {

namespace fs = std::filesystem;
using Names = std::vector<std::string>;

const std::string k_fixtures = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/fatbin";
constexpr const char* k_nvcc = "/usr/local/cuda/bin/nvcc";

facts::FatbinSummary read_ok(const std::string& path) {
  auto root = sys::make_rooted_file_system("/");
  auto s = read_fatbin(*root, path);
  EXPECT_TRUE(s) << s.error().message;
  return s ? *s : facts::FatbinSummary{};
}

std::size_t compressed_count(const facts::FatbinSummary& s) {
  std::size_t n = 0;
  for (const auto& e : s.entries) n += e.compressed ? 1 : 0;
  return n;
}

// What each fixture was built with (build.sh), and so what it must list.
struct Expectation {
  std::string file;
  Names cubins;
  Names ptx;
  std::size_t compressed;
  std::string section = ".nv_fatbin";
};

const std::vector<Expectation>& expectations() {
  static const std::vector<Expectation> v = {
      // nvcc 13 compresses PTX by default and leaves cubins alone.
      {"multi_arch.so", {"sm_75", "sm_86"}, {"compute_90"}, 1},
      {"cubin_only.so", {"sm_75", "sm_80"}, {}, 0},
      {"ptx_only.so", {}, {"compute_80"}, 0},  // -Xfatbin -compress=false
      {"compressed_all.so", {"sm_75", "sm_89"}, {"compute_89"}, 3},
      {"arch_variants.so", {"sm_90a", "sm_100f", "sm_120"}, {"compute_120f"}, 1},
      {"relocatable.o", {"sm_80"}, {}, 2, "__nv_relfatbin"},  // -rdc: lto_90 and sm_80, both compressed
  };
  return v;
}

void expect_matches(const facts::FatbinSummary& s, const Expectation& want) {
  EXPECT_EQ(s.cubin_names(), want.cubins);
  EXPECT_EQ(s.ptx_names(), want.ptx);
  EXPECT_EQ(compressed_count(s), want.compressed);
  EXPECT_EQ(s.sections, Names{want.section});
  EXPECT_EQ(s.containers, 1u);
}

TEST(FatbinReader, CommittedFixtures) {
  for (const auto& want : expectations()) {
    SCOPED_TRACE(want.file);
    expect_matches(read_ok(k_fixtures + "/" + want.file), want);
  }
}

TEST(FatbinReader, LtoIrIsItsOwnKind) {
  auto s = read_ok(k_fixtures + "/relocatable.o");
  ASSERT_EQ(s.entries.size(), 2u);
  EXPECT_EQ(s.entries[0].kind, facts::FatbinEntryKind::lto_ir);
  EXPECT_EQ(facts::entry_name(s.entries[0]), "lto_90");
}

TEST(FatbinReader, PtxCarriesItsIsaVersion) {
  auto s = read_ok(k_fixtures + "/ptx_only.so");
  ASSERT_EQ(s.entries.size(), 1u);
  EXPECT_EQ(s.entries[0].kind, facts::FatbinEntryKind::ptx);
  EXPECT_GE(s.entries[0].version_major, 9);  // CUDA 13.0 writes PTX ISA 9.0
}

TEST(FatbinReader, FileWithoutFatbinHasNoEntries) {
  auto s = read_ok("/proc/self/exe");
  EXPECT_TRUE(s.entries.empty());
  EXPECT_TRUE(s.sections.empty());
}

TEST(FatbinReader, NotAnElfFileIsAClearError) {
  auto root = sys::make_rooted_file_system("/");
  auto s = read_fatbin(*root, k_fixtures + "/scale.cu");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, sys::ErrorCode::invalid);
  EXPECT_NE(s.error().message.find("not an ELF file"), std::string::npos) << s.error().message;
}

TEST(FatbinReader, TruncatedLibraryIsAClearError) {
  std::ifstream in(k_fixtures + "/multi_arch.so", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 0x2100u);
  fs::path dir = fs::path(GPUDOCTOR_BINARY_DIR) / "tmp" / ("fatbin_reader_test." + std::to_string(::getpid()));
  fs::create_directories(dir);
  // Cut inside the fatbin: the section headers (at the end of the file) are gone too.
  std::ofstream(dir / "cut.so", std::ios::binary) << bytes.substr(0, 0x2100);
  auto root = sys::make_rooted_file_system("/");
  auto s = read_fatbin(*root, (dir / "cut.so").string());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, sys::ErrorCode::invalid);
  EXPECT_NE(s.error().message.find("section headers"), std::string::npos) << s.error().message;
}

TEST(FatbinReader, ContainerThatOverrunsItsSection) {
  std::string c(16, '\0');
  c.replace(0, 4, "\x50\xed\x55\xba", 4);
  c[4] = 1;
  c[6] = 16;
  c[8] = '\x40';  // fat_size 64, nothing follows
  auto s = parse_fatbin_section(c);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("truncated"), std::string::npos) << s.error().message;
}

// A minimal little-endian ELF64 file: one data region of fatbin entries and `sections` section
// headers named .nv_fatbin, section i starting `shift * i` bytes into the region.
std::string hostile_elf(std::size_t sections, std::size_t shift) {
  auto put = [](std::string& b, std::size_t off, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b[off + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  constexpr std::size_t entries = 16383;
  std::string region(16 + entries * 64, '\0');
  put(region, 0, 0xBA55ED50u, 4);
  put(region, 4, 1, 2);
  put(region, 6, 16, 2);
  put(region, 8, entries * 64, 8);
  for (std::size_t i = 0; i < entries; ++i) {
    std::size_t e = 16 + i * 64;
    put(region, e, 2, 2);        // cubin
    put(region, e + 4, 64, 4);   // header size, no payload
    put(region, e + 0x1c, 80, 4);
  }
  const std::string shstrtab = std::string("\0.nv_fatbin\0.shstrtab\0", 23);
  std::string file(64, '\0');
  file.replace(0, 4, "\x7f" "ELF");
  file[4] = 2;  // ELFCLASS64
  file[5] = 1;  // little endian
  file[6] = 1;  // EV_CURRENT
  put(file, 16, 3, 2);   // ET_DYN
  put(file, 18, 62, 2);  // EM_X86_64
  put(file, 20, 1, 4);
  const std::size_t region_off = file.size();
  file += region;
  const std::size_t strtab_off = file.size();
  file += shstrtab;
  while (file.size() % 8) file += '\0';
  const std::size_t shoff = file.size();
  const std::size_t shnum = sections + 2;  // the null section, the fatbins, .shstrtab
  put(file, 40, shoff, 8);
  put(file, 58, 64, 2);  // e_shentsize
  put(file, 60, shnum, 2);
  put(file, 62, shnum - 1, 2);
  std::string headers(shnum * 64, '\0');
  for (std::size_t i = 1; i <= sections; ++i) {
    std::size_t h = i * 64;
    std::size_t start = std::min(shift * (i - 1), region.size());
    put(headers, h, 1, 4);       // name ".nv_fatbin"
    put(headers, h + 4, 1, 4);   // SHT_PROGBITS
    put(headers, h + 24, region_off + start, 8);
    put(headers, h + 32, region.size() - start, 8);
  }
  std::size_t h = (shnum - 1) * 64;
  put(headers, h, 12, 4);  // ".shstrtab"
  put(headers, h + 4, 3, 4);  // SHT_STRTAB
  put(headers, h + 24, strtab_off, 8);
  put(headers, h + 32, shstrtab.size(), 8);
  return file + headers;
}

// 2,048 section headers over one 1 MiB region once cost 33.5 M entries (1.3 GB); 8,192 ended in
// bad_alloc. Each byte is now walked once, so the file lists the region's entries once.
TEST(FatbinReader, ManySectionsOverOneRegionAreWalkedOnce) {
  fs::path dir = fs::path(GPUDOCTOR_BINARY_DIR) / "tmp" / ("fatbin_hostile." + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto root = sys::make_rooted_file_system("/");
  for (auto [count, shift] : {std::pair<std::size_t, std::size_t>{2048, 0}, {8192, 0}, {2048, 8}}) {
    SCOPED_TRACE(std::to_string(count) + " sections, shift " + std::to_string(shift));
    auto path = dir / ("hostile_" + std::to_string(count) + "_" + std::to_string(shift) + ".so");
    std::ofstream(path, std::ios::binary) << hostile_elf(count, shift);
    auto s = read_fatbin(*root, path.string());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->entries.size(), 16383u);
    EXPECT_EQ(s->containers, 1u);
    EXPECT_EQ(s->sections, Names{".nv_fatbin"});
  }
  fs::remove_all(dir);
}

std::string run(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  *status = ::pclose(p);
  return out;
}

// The same targets rebuilt now by the installed nvcc: the reader must agree with what nvcc was asked for.
TEST(FatbinReader, FreshNvccBuildsOfEveryFixture) {
  if (!fs::exists(k_nvcc)) GTEST_SKIP() << k_nvcc << " is not installed: the committed fixtures cover the format";
  fs::path dir = fs::path(GPUDOCTOR_BINARY_DIR) / "tmp" / ("fatbin_nvcc." + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(k_fixtures + "/scale.cu", dir / "scale.cu");
  fs::copy_file(k_fixtures + "/build.sh", dir / "build.sh");
  int status = 0;
  std::string out = run("sh '" + (dir / "build.sh").string() + "' " + k_nvcc, &status);
  ASSERT_EQ(status, 0) << out;
  for (const auto& want : expectations()) {
    SCOPED_TRACE(want.file);
    expect_matches(read_ok((dir / want.file).string()), want);
  }
}

TEST(FatbinReader, DistinctEntriesCollapseRepeatsAcrossContainers) {
  facts::FatbinSummary s;
  s.path = "lib.so";
  s.containers = 3;
  for (int i = 0; i < 3; ++i) {
    for (int arch : {80, 75}) {
      facts::FatbinEntry e;
      e.kind = facts::FatbinEntryKind::cubin;
      e.raw_kind = 2;
      e.arch = arch;
      e.payload_size = 100;
      e.compressed = i == 2;
      s.entries.push_back(e);
    }
  }
  facts::FatbinEntry ptx;
  ptx.kind = facts::FatbinEntryKind::ptx;
  ptx.raw_kind = 1;
  ptx.arch = 80;
  ptx.version_major = 8;
  s.entries.push_back(ptx);
  auto d = facts::distinct_entries(s);
  ASSERT_EQ(d.entries.size(), 3u);
  EXPECT_EQ(d.containers, 3u);
  EXPECT_EQ(facts::entry_name(d.entries[0]), "compute_80");  // by kind, then arch
  EXPECT_EQ(facts::entry_name(d.entries[1]), "sm_75");
  EXPECT_EQ(d.entries[1].payload_size, 300u);
  EXPECT_TRUE(d.entries[1].compressed);
  EXPECT_EQ(d.cubin_names(), s.cubin_names());
  // What the kernels can run on is unchanged.
  for (auto [major, minor] : {std::pair{7, 5}, {8, 6}, {9, 0}}) {
    EXPECT_EQ(checks::predict_support(d, major, minor).kind, checks::predict_support(s, major, minor).kind);
  }
}

TEST(FatbinReader, ToolkitCublasLt) {
  const std::string lib = "/usr/local/cuda/lib64/libcublasLt.so.13";
  if (!fs::exists(lib)) GTEST_SKIP() << lib << " is not on this machine";
  auto s = read_ok(lib);
  EXPECT_EQ(s.sections, Names{".nv_fatbin"});
  EXPECT_GT(s.entries.size(), 100u);
  // CUDA 13 supports sm_75 and later only; every cubin arch is a real one.
  for (const auto& e : s.entries) {
    if (e.kind == facts::FatbinEntryKind::cubin) {
      EXPECT_GE(e.arch, 75) << facts::entry_name(e);
      EXPECT_LE(e.arch, 130) << facts::entry_name(e);
    }
  }
  // The toolkit's own library must run natively on the GPUs CUDA 13 supports (Turing, Ampere, Hopper).
  EXPECT_EQ(checks::predict_support(s, 7, 5).kind, checks::KernelSupportKind::native);
  EXPECT_EQ(checks::predict_support(s, 8, 0).kind, checks::KernelSupportKind::native);
  EXPECT_EQ(checks::predict_support(s, 9, 0).kind, checks::KernelSupportKind::native);
}

}  // namespace
}  // namespace gpudoctor::probe::fatbin
