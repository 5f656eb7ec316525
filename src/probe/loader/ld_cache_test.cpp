// ld.so.cache parsing, checked against caches written by the real ldconfig in all three layouts and
// against `ldconfig -p`, its own reader; then truncated and corrupted caches, which must never crash.
#include <probe/loader/ld_cache.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <sys/file_system.hpp>

namespace gpudoctor::probe::loader {
namespace {

namespace fs = std::filesystem;

std::string ldconfig_program() {
  for (const char* p : {"/usr/sbin/ldconfig", "/sbin/ldconfig"}) {
    if (fs::exists(p)) return p;
  }
  return {};
}

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  ::pclose(p);
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `ldconfig -p` lines: "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1".
std::multiset<std::pair<std::string, std::string>> ldconfig_print(const std::string& ldconfig, const std::string& cache) {
  std::multiset<std::pair<std::string, std::string>> out;
  std::string text = run(ldconfig + " -p -C '" + cache + "' 2>/dev/null");
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty() || line[0] != '\t') continue;
    auto arrow = line.find(" => ");
    auto paren = line.find(" (");
    if (arrow == std::string::npos || paren == std::string::npos) continue;
    out.emplace(line.substr(1, paren - 1), line.substr(arrow + 4));
  }
  return out;
}

std::multiset<std::pair<std::string, std::string>> pairs(const LdCache& c) {
  std::multiset<std::pair<std::string, std::string>> out;
  for (const auto& e : c.entries) out.emplace(e.soname, e.path);
  return out;
}

class LdCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_ldconfig = ldconfig_program();
    if (m_ldconfig.empty()) GTEST_SKIP() << "ldconfig is not installed: no real caches to compare with";
    m_root = fs::path(GPUDOCTOR_BINARY_DIR) / "tmp" / ("ld_cache_test." + std::to_string(::getpid()));
    fs::remove_all(m_root);
    fs::create_directories(m_root / "opt/a");
    fs::create_directories(m_root / "opt/b");
    fs::create_directories(m_root / "etc");
    // Real shared objects of this machine, so that ldconfig reads real sonames.
    for (const char* lib : {"libz.so.1", "libstdc++.so.6", "libgcc_s.so.1", "libm.so.6"}) {
      for (const char* dir : {"/lib/x86_64-linux-gnu/", "/usr/lib/x86_64-linux-gnu/", "/lib64/", "/usr/lib64/"}) {
        fs::path src = fs::path(dir) / lib;
        if (fs::exists(src)) {
          fs::copy_file(fs::canonical(src), m_root / "opt/a" / lib, fs::copy_options::overwrite_existing);
          ++m_libs;
          break;
        }
      }
    }
    if (m_libs == 0) GTEST_SKIP() << "none of libz/libstdc++/libgcc_s/libm found to put in a cache";
    // The same soname in two directories: both rows are kept, in ld.so.conf order.
    if (fs::exists(m_root / "opt/a/libz.so.1")) {
      fs::copy_file(m_root / "opt/a/libz.so.1", m_root / "opt/b/libz.so.1", fs::copy_options::overwrite_existing);
    }
    std::ofstream(m_root / "etc/ld.so.conf") << "/opt/a\n/opt/b\n";
  }

  // Writes ROOT/etc/FILE with `ldconfig -c FORMAT` and returns its host path.
  std::string make_cache(const std::string& format) {
    std::string name = "/etc/ld.so.cache." + format;
    run(m_ldconfig + " -X -r '" + m_root.string() + "' -c " + format + " -C " + name + " -f /etc/ld.so.conf 2>&1");
    return (m_root / name.substr(1)).string();
  }

  std::string m_ldconfig;
  fs::path m_root;
  int m_libs = 0;
};

TEST_F(LdCacheTest, EveryFormatMatchesLdconfigsOwnListing) {
  for (const auto& [format, expected] : {std::pair{"new", LdCacheFormat::new_format}, std::pair{"old", LdCacheFormat::old_format},
                                         std::pair{"compat", LdCacheFormat::combined}}) {
    SCOPED_TRACE(format);
    std::string path = make_cache(format);
    ASSERT_TRUE(fs::exists(path)) << "ldconfig -c " << format << " wrote nothing";
    auto cache = parse_ld_cache(slurp(path));
    ASSERT_TRUE(cache) << cache.error().message;
    EXPECT_EQ(cache->format, expected);
    auto want = ldconfig_print(m_ldconfig, path);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(pairs(*cache), want);
    for (const auto& e : cache->entries) EXPECT_EQ(e.flags, 0x0303) << e.soname;  // all x86-64 libc6 objects
  }
}

TEST_F(LdCacheTest, NewFormatCarriesTheGeneratorExtension) {
  auto cache = parse_ld_cache(slurp(make_cache("new")));
  ASSERT_TRUE(cache) << cache.error().message;
  std::string listing = run(m_ldconfig + " -p -C '" + (m_root / "etc/ld.so.cache.new").string() + "'");
  ASSERT_FALSE(cache->generator.empty());
  EXPECT_NE(listing.find("Cache generated by: " + cache->generator), std::string::npos) << listing;
}

TEST(LdCache, SystemCacheMatchesLdconfig) {
  std::string ldconfig = ldconfig_program();
  if (ldconfig.empty() || !fs::exists("/etc/ld.so.cache")) GTEST_SKIP() << "no ldconfig or no /etc/ld.so.cache on this machine";
  auto root = sys::make_rooted_file_system("/");
  auto cache = read_ld_cache(*root);
  ASSERT_TRUE(cache) << cache.error().message;
  EXPECT_EQ(pairs(*cache), ldconfig_print(ldconfig, "/etc/ld.so.cache"));
}

TEST_F(LdCacheTest, TruncatedAndCorruptedCachesNeverReadOutOfBounds) {
  for (const char* format : {"new", "old", "compat"}) {
    std::string bytes = slurp(make_cache(format));
    ASSERT_GT(bytes.size(), 48u);
    // Every prefix: an error, or entries whose strings were all inside the prefix.
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      auto c = parse_ld_cache(std::string_view(bytes).substr(0, n));
      if (c) {
        for (const auto& e : c->entries) EXPECT_LE(e.soname.size() + e.path.size(), n);
      }
    }
    std::mt19937 rng(42);
    for (int i = 0; i < 3000; ++i) {
      std::string m = bytes;
      for (int k = 0; k < 1 + i % 4; ++k) m[rng() % m.size()] = static_cast<char>(rng());
      (void)parse_ld_cache(m);
    }
  }
}

TEST(LdCache, HostileCountsAreRejected) {
  std::string b = "glibc-ld.so.cache1.1";
  b.append(28, '\0');
  b[20] = '\xff';
  b[21] = '\xff';
  b[22] = '\xff';
  b[23] = '\x0f';  // nlibs = 0x0fffffff
  auto c = parse_ld_cache(b);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("more than fit"), std::string::npos) << c.error().message;
  EXPECT_FALSE(parse_ld_cache("not a cache at all, just text"));
  EXPECT_FALSE(parse_ld_cache(""));
}

TEST(LdCache, FlagsForTheLoadersAbi) {
  EXPECT_EQ(cache_flags_for(true, 62), 0x0303);   // x86-64
  EXPECT_EQ(cache_flags_for(false, 62), 0x0803);  // x32
  EXPECT_EQ(cache_flags_for(true, 183), 0x0a03);  // aarch64
  EXPECT_EQ(cache_flags_for(false, 3), 0x0003);   // i386
}

}  // namespace
}  // namespace gpudoctor::probe::loader
