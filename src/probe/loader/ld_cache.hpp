// LdCache: the entries of /etc/ld.so.cache, which ldconfig writes and ld.so consults before the
// default directories. Three layouts exist (glibc sysdeps/generic/dl-cache.h):
//   - old, "ld.so-1.7.0": 12-byte entries, strings relative to the end of the entry table;
//   - new, "glibc-ld.so.cache1.1": 24-byte entries with hwcap bits, strings relative to the file start;
//   - combined (glibc 2.2 .. 2.31 default): an old table, padding to 8 bytes, then a new one, which
//     ld.so prefers (elf/dl-cache.c, _dl_load_cache_lookup).
// The parser bounds-checks every count and offset: a truncated or hostile file yields an Error or
// fewer entries, never a read outside the buffer.
//
// Thread-safety: plain functions and values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <sys/error.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe::loader {

inline constexpr std::string_view k_ld_cache_path = "/etc/ld.so.cache";

enum class LdCacheFormat { old_format, new_format, combined };

struct LdCacheEntry {
  std::int32_t flags = 0;     // FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 = 0x0303 on x86-64 (sysdeps/generic/ldconfig.h)
  std::string soname;         // the key: "libc.so.6"
  std::string path;           // the value: "/lib/x86_64-linux-gnu/libc.so.6"
  std::uint32_t osversion = 0;
  std::uint64_t hwcap = 0;    // 0 in the old format; bit 62 set: a glibc-hwcaps subdirectory entry
  std::string hwcaps;         // that subdirectory's name ("x86-64-v3"); "" for a plain entry
  bool operator==(const LdCacheEntry&) const = default;
};

struct LdCache {
  LdCacheFormat format = LdCacheFormat::new_format;
  // In file order (ldconfig sorts them for ld.so's binary search). For the combined layout, the new
  // table's entries: the ones ld.so reads.
  std::vector<LdCacheEntry> entries;
  std::vector<std::string> hwcaps;    // glibc-hwcaps subdirectory names from the extension ("x86-64-v3")
  std::string generator;              // "ldconfig (Debian GLIBC 2.36-9) ..." from the extension; may be ""
};

// The flags value ld.so accepts for an object of this class and machine (_DL_CACHE_DEFAULT_ID in
// sysdeps/*/dl-cache.h); entries with other flags belong to another ABI (i386, x32) and are skipped.
std::int32_t cache_flags_for(bool elf64, std::uint16_t machine);

sys::Expected<LdCache> parse_ld_cache(std::string_view bytes);
// Reads and parses `path` (default /etc/ld.so.cache); a cache larger than 64 MiB is refused.
sys::Expected<LdCache> read_ld_cache(const sys::FileSystem& fs, std::string_view path = k_ld_cache_path);

}  // namespace gpudoctor::probe::loader
