// The loader model against the real loader: tiny libraries and programs built with the system C
// compiler in RPATH / RUNPATH / $ORIGIN / $LIB / LD_LIBRARY_PATH / wrong-class layouts, resolved by our
// model and by `ld.so --list` (which maps the objects without running the program), and compared
// soname by soname. Real libraries (libcublasLt from /usr/local/cuda) are compared the same way.
#include <probe/loader/resolver.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <sys/file_system.hpp>
#include <sys/memory_file_system.hpp>

namespace gpudoctor::probe::loader {
namespace {

namespace fs = std::filesystem;
using facts::SearchRule;

constexpr const char* k_ld_so = "/lib64/ld-linux-x86-64.so.2";

std::string run(const std::string& cmd, int* status = nullptr) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int rc = ::pclose(p);
  if (status) *status = rc;
  return out;
}

// `ld.so --list` lines: "\tlibc1.so => /t/c/libc1.so (0x...)" or "\tlibc1.so => not found".
std::map<std::string, std::string> real_loader(const std::string& file, const std::string& ld_library_path) {
  std::string env = ld_library_path.empty() ? "env -u LD_LIBRARY_PATH " : "env LD_LIBRARY_PATH='" + ld_library_path + "' ";
  std::string text = run(env + k_ld_so + " --list '" + file + "'");
  std::map<std::string, std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    // A soname that cannot be found ends the listing: "FILE: error while loading shared libraries:
    // NAME: cannot open shared object file: No such file or directory".
    auto err = line.find("error while loading shared libraries: ");
    if (err != std::string::npos) {
      auto name_at = err + std::string_view("error while loading shared libraries: ").size();
      out[line.substr(name_at, line.find(':', name_at) - name_at)] = "not found";
      continue;
    }
    auto arrow = line.find(" => ");
    if (arrow == std::string::npos) continue;
    std::string name = line.substr(line.find_first_not_of(" \t"), arrow - line.find_first_not_of(" \t"));
    std::string rest = line.substr(arrow + 4);
    out[name] = rest.starts_with("not found") ? "not found" : rest.substr(0, rest.find(" ("));
  }
  return out;
}

std::map<std::string, std::string> model(const std::string& file, const std::string& ld_library_path) {
  auto root = sys::make_rooted_file_system("/");
  auto info = read_elf_info(*root, file);
  EXPECT_TRUE(info) << info.error().message;
  if (!info) return {};
  auto ctx = make_loader_context(*root, ld_library_path, info->machine);
  std::map<std::string, std::string> out;
  for (const auto& r : resolve_needed_tree(*root, *info, ctx)) {
    if (r.rule == SearchRule::already_loaded) continue;
    out.emplace(r.soname, r.found() ? r.path : "not found");
  }
  return out;
}

std::string rule_of(const std::string& file, const std::string& soname, const std::string& llp) {
  auto root = sys::make_rooted_file_system("/");
  auto info = read_elf_info(*root, file);
  if (!info) return "unreadable";
  auto ctx = make_loader_context(*root, llp, info->machine);
  for (const auto& r : resolve_needed_tree(*root, *info, ctx)) {
    if (r.soname == soname && r.rule != SearchRule::already_loaded) return facts::to_string(r.rule);
  }
  return "absent";
}

class ResolverTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists(k_ld_so)) {
      s_skip = "no x86-64 dynamic loader at /lib64/ld-linux-x86-64.so.2 to compare with";
      return;
    }
    if (run("command -v cc").empty()) {
      s_skip = "no C compiler (cc) to build the test libraries";
      return;
    }
    // Per process: ctest runs each test in its own process, possibly in parallel.
    s_t = (fs::path(GPUDOCTOR_BINARY_DIR) / "tmp" / ("resolver_test." + std::to_string(::getpid()))).string();
    fs::remove_all(s_t);
    for (const char* d : {"c", "l", "a", "a_origin", "bad", "badm", "lib/x86_64-linux-gnu", "lib64", "x86_64", "src"}) {
      fs::create_directories(s_t + "/" + d);
    }
    const std::string& t = s_t;
    std::ofstream(t + "/src/c1.c") << "int c1(void) { return 1; }\n";
    std::ofstream(t + "/src/c2.c") << "int c1(void) { return 2; }\n";
    std::ofstream(t + "/src/a.c") << "int c1(void);\nint a(void) { return c1(); }\n";
    std::ofstream(t + "/src/main.c") << "int a(void);\nint main(void) { return a(); }\n";
    std::string cmds =
        "set -e; cd '" + t + "';"
        "cc -shared -fPIC -Wl,-soname,libc1.so -o c/libc1.so src/c1.c;"
        "cc -shared -fPIC -Wl,-soname,libc1.so -o l/libc1.so src/c2.c;"
        "cp c/libc1.so lib/x86_64-linux-gnu/libc1.so; cp l/libc1.so lib64/libc1.so; cp c/libc1.so x86_64/libc1.so;"
        "cp c/libc1.so bad/libc1.so; printf '\\001' | dd of=bad/libc1.so bs=1 seek=4 conv=notrunc status=none;"
        "cp c/libc1.so badm/libc1.so; printf '\\267\\000' | dd of=badm/libc1.so bs=1 seek=18 conv=notrunc status=none;"
        "cc -shared -fPIC -Wl,-soname,liba.so -o a/liba.so src/a.c -Lc -lc1;"
        "cc -shared -fPIC -Wl,-soname,liba.so -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../c' -o a_origin/liba.so src/a.c -Lc -lc1;"
        "cc -o exe_rpath src/main.c -La -la -Wl,-rpath-link,c -Wl,--disable-new-dtags -Wl,-rpath,'" + t + "/a:" + t + "/c';"
        "cc -o exe_runpath src/main.c -La -la -Wl,-rpath-link,c -Wl,--enable-new-dtags -Wl,-rpath,'" + t + "/a:" + t + "/c';"
        "cc -o exe_origin src/main.c -La_origin -la -Wl,-rpath-link,c -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/a_origin';"
        "cc -o exe_lib src/main.c -La -la -Wl,-rpath-link,c -Wl,--disable-new-dtags -Wl,-rpath,'" + t + "/a:" + t + "/$LIB';"
        "cc -o exe_platform src/main.c -La -la -Wl,-rpath-link,c -Wl,--disable-new-dtags -Wl,-rpath,'" + t + "/a:" + t + "/${PLATFORM}';";
    // The commands hold $ORIGIN and quotes: a script file avoids another level of quoting.
    { std::ofstream(t + "/build.sh") << cmds << "\n"; }
    int status = 0;
    std::string out = run("sh '" + t + "/build.sh'", &status);
    if (status != 0) s_failure = "building the test libraries failed: " + out;
  }

  void SetUp() override {
    if (!s_skip.empty()) GTEST_SKIP() << s_skip;
    if (!s_failure.empty()) FAIL() << s_failure;
  }

  void expect_same_as_real_loader(const std::string& exe, const std::string& llp = "") {
    SCOPED_TRACE(exe + " with LD_LIBRARY_PATH=" + llp);
    auto want = real_loader(s_t + "/" + exe, llp);
    ASSERT_FALSE(want.empty()) << "ld.so --list printed nothing useful";
    auto got = model(s_t + "/" + exe, llp);
    for (const auto& [name, path] : want) {
      auto it = got.find(name);
      ASSERT_NE(it, got.end()) << name << " resolved by ld.so to " << path << " but absent from the model";
      EXPECT_EQ(it->second, path) << name;
    }
  }

  static std::string s_t;
  static std::string s_skip;
  static std::string s_failure;
};

std::string ResolverTest::s_t;
std::string ResolverTest::s_skip;
std::string ResolverTest::s_failure;

TEST_F(ResolverTest, RpathOfTheLoaderChainServesGrandchildren) {
  expect_same_as_real_loader("exe_rpath");
  EXPECT_EQ(model(s_t + "/exe_rpath", "")["libc1.so"], s_t + "/c/libc1.so");
  EXPECT_EQ(rule_of(s_t + "/exe_rpath", "libc1.so", ""), "rpath");
}

TEST_F(ResolverTest, RpathWinsOverLdLibraryPath) {
  expect_same_as_real_loader("exe_rpath", s_t + "/l");
  EXPECT_EQ(model(s_t + "/exe_rpath", s_t + "/l")["libc1.so"], s_t + "/c/libc1.so");
}

TEST_F(ResolverTest, RunpathIsNotInheritedByChildren) {
  expect_same_as_real_loader("exe_runpath");
  EXPECT_EQ(model(s_t + "/exe_runpath", "")["libc1.so"], "not found");
  EXPECT_EQ(rule_of(s_t + "/exe_runpath", "liba.so", ""), "runpath");
}

TEST_F(ResolverTest, LdLibraryPathWinsOverRunpath) {
  expect_same_as_real_loader("exe_runpath", s_t + "/l");
  EXPECT_EQ(rule_of(s_t + "/exe_runpath", "libc1.so", s_t + "/l"), "ld_library_path");
}

TEST_F(ResolverTest, WrongClassAndMachineAreSkipped) {
  std::string llp = s_t + "/bad:" + s_t + "/badm:" + s_t + "/l";
  expect_same_as_real_loader("exe_runpath", llp);
  auto root = sys::make_rooted_file_system("/");
  auto info = read_elf_info(*root, s_t + "/a/liba.so");
  ASSERT_TRUE(info) << info.error().message;
  auto ctx = make_loader_context(*root, llp, info->machine);
  auto r = resolve_soname(*root, "libc1.so", *info, ctx);
  ASSERT_TRUE(r.found());
  ASSERT_GE(r.tried.size(), 3u);
  EXPECT_EQ(r.tried[0].rejected, "wrong ELF class: ELFCLASS32");
  EXPECT_EQ(r.tried[1].rejected, "wrong machine: EM_AARCH64");
  EXPECT_EQ(r.path, s_t + "/l/libc1.so");
}

TEST_F(ResolverTest, OriginExpandsToTheObjectsOwnDirectory) {
  expect_same_as_real_loader("exe_origin");
  EXPECT_EQ(model(s_t + "/exe_origin", "")["libc1.so"], s_t + "/a_origin/../c/libc1.so");
}

TEST_F(ResolverTest, LibAndPlatformExpandAsThisGlibcDoes) {
  expect_same_as_real_loader("exe_lib");
  expect_same_as_real_loader("exe_platform");
}

TEST(Resolver, RealCudaLibraryMatchesTheRealLoader) {
  const std::string lib = "/usr/local/cuda/lib64/libcublasLt.so.13";
  if (!fs::exists(lib) || !fs::exists(k_ld_so)) GTEST_SKIP() << lib << " or " << k_ld_so << " is not on this machine";
  auto want = real_loader(lib, "");
  auto got = model(lib, "");
  ASSERT_GE(want.size(), 5u);
  for (const auto& [name, path] : want) {
    if (name == "ld-linux-x86-64.so.2") continue;  // already loaded: ld.so prints its own path, not a search
    EXPECT_EQ(got[name], path) << name;
  }
}

TEST(Resolver, DynamicStringTokens) {
  LoaderContext ctx;
  ctx.lib = "lib/x86_64-linux-gnu";
  ctx.platform = "x86_64";
  EXPECT_EQ(expand_dynamic_string("$ORIGIN/../lib", "/opt/x/bin", ctx), "/opt/x/bin/../lib");
  EXPECT_EQ(expand_dynamic_string("${ORIGIN}/a:$LIB", "/o", ctx), "/o/a:lib/x86_64-linux-gnu");
  EXPECT_EQ(expand_dynamic_string("/p/$PLATFORM/x", "/o", ctx), "/p/x86_64/x");
  EXPECT_EQ(expand_dynamic_string("/p/$ORIGINAL", "/o", ctx), "/p/$ORIGINAL");  // not a token: kept as written
  EXPECT_EQ(expand_dynamic_string("/p/$", "/o", ctx), "/p/$");
}

// $PLATFORM on x86-64 is glibc's choice from the CPU's features (on Intel only), not AT_PLATFORM.
TEST(Resolver, PlatformIsWhatGlibcMakesOfTheCpu) {
  auto platform_of = [](std::string cpuinfo) {
    auto fs_ = sys::make_memory_file_system({{"/proc/cpuinfo", std::move(cpuinfo)}});
    return make_loader_context(*fs_, "", 62).platform;
  };
  const std::string haswell_flags = "fpu sse2 popcnt movbe avx2 fma bmi1 bmi2 abm";
  EXPECT_EQ(platform_of("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: " + haswell_flags + "\n\nprocessor\t: 1\n"),
            "haswell");
  EXPECT_EQ(platform_of("vendor_id\t: GenuineIntel\nflags\t\t: " + haswell_flags + " avx512cd avx512er avx512pf\n"),
            "xeon_phi");
  EXPECT_EQ(platform_of("vendor_id\t: AuthenticAMD\nflags\t\t: " + haswell_flags + "\n"), "x86_64")
      << "glibc names the platform on Intel CPUs only";
  EXPECT_EQ(platform_of("vendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 popcnt avx2 fma bmi1 bmi2\n"), "x86_64")
      << "without LZCNT (abm) and MOVBE it is not haswell";
  EXPECT_EQ(platform_of("garbage \xff\xfe without fields"), "x86_64");
  auto none = sys::make_memory_file_system({});
  EXPECT_EQ(make_loader_context(*none, "", 62).platform, "x86_64");
  EXPECT_EQ(make_loader_context(*none, "", 183 /* EM_AARCH64 */).platform, "aarch64");
}

// A captured tree: the cache and the default directories come from the tree, not from this machine.
TEST(Resolver, CachedEntryOfTheRightAbiIsUsedInACapturedTree) {
  std::string elf64(64, '\0');
  elf64.replace(0, 4, "\x7f" "ELF");
  elf64[4] = 2;
  elf64[5] = 1;
  elf64[6] = 1;
  elf64[16] = 3;   // ET_DYN
  elf64[18] = 62;  // EM_X86_64
  std::string elf32 = elf64;
  elf32[4] = 1;
  // A new-format cache with two rows for libfoo.so.1: i386 (flags 0x0003) first, x86-64 (0x0303) second.
  std::string strings = std::string("libfoo.so.1\0/lib32/libfoo.so.1\0/opt/foo/libfoo.so.1\0", 52);
  std::string cache = "glibc-ld.so.cache1.1";
  auto put32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) cache += static_cast<char>((v >> (8 * i)) & 0xff);
  };
  std::uint32_t base = 48 + 2 * 24;
  put32(2);
  put32(static_cast<std::uint32_t>(strings.size()));
  put32(2);  // flags: little endian
  put32(0);  // no extensions
  put32(0); put32(0); put32(0);
  put32(0x0003); put32(base); put32(base + 12); put32(0); put32(0); put32(0);
  put32(0x0303); put32(base); put32(base + 31); put32(0); put32(0); put32(0);
  cache += strings;
  auto fs_ = sys::make_memory_file_system({{"/etc/ld.so.cache", cache},
                                           {"/lib32/libfoo.so.1", elf32},
                                           {"/opt/foo/libfoo.so.1", elf64},
                                           {"/lib/x86_64-linux-gnu/libc.so.6", elf64}});
  auto ctx = make_loader_context(*fs_, "", 62);
  ASSERT_TRUE(ctx.cache.has_value());
  EXPECT_EQ(ctx.default_dirs.front(), "/lib/x86_64-linux-gnu");
  ElfInfo requester;
  requester.path = "/opt/app/app";
  requester.machine = 62;
  auto r = resolve_soname(*fs_, "libfoo.so.1", requester, ctx);
  EXPECT_EQ(r.path, "/opt/foo/libfoo.so.1");
  EXPECT_EQ(r.rule, SearchRule::cache);
  requester.nodeflib = true;  // /opt/foo is not a default directory: DF_1_NODEFLIB does not hide it
  EXPECT_EQ(resolve_soname(*fs_, "libfoo.so.1", requester, ctx).rule, SearchRule::cache);
  auto missing = resolve_soname(*fs_, "libbar.so.2", requester, ctx);
  EXPECT_FALSE(missing.found());
  ASSERT_EQ(missing.tried.size(), 1u);  // the cache only; with NODEFLIB not the default directories
  EXPECT_EQ(missing.tried[0].rule, SearchRule::cache);
}

}  // namespace
}  // namespace gpudoctor::probe::loader
