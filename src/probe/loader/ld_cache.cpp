// Layouts from glibc sysdeps/generic/dl-cache.h (struct cache_file, cache_file_new, file_entry_new,
// cache_extension) and the reader in elf/dl-cache.c (_dl_load_cache_lookup): an old table at offset 0
// may be followed, at the next 8-byte boundary after its entries, by a new-format header, which wins.
// String offsets are relative to the end of the old entry table (old format) or to the start of the
// new header (new format). Checked against `ldconfig -p -C FILE` in ld_cache_test.cpp.
#include <probe/loader/ld_cache.hpp>

#include <elf.h>

#include <cstring>
#include <optional>

namespace gpudoctor::probe::loader {
namespace {

constexpr std::string_view k_magic_old = "ld.so-1.7.0";           // CACHEMAGIC, 11 bytes
constexpr std::string_view k_magic_new = "glibc-ld.so.cache1.1";  // CACHEMAGIC_NEW CACHE_VERSION, 20 bytes
constexpr std::size_t k_old_header = 16;       // sizeof (struct cache_file): magic, pad, nlibs
constexpr std::size_t k_old_entry = 12;        // sizeof (struct file_entry)
constexpr std::size_t k_new_header = 48;       // _Static_assert (sizeof (struct cache_file_new) == 48)
constexpr std::size_t k_new_entry = 24;        // sizeof (struct file_entry_new)
constexpr std::uint32_t k_extension_magic = 0xEAA42174u;  // cache_extension_magic = (uint32_t) -358342284
constexpr std::uint32_t k_tag_generator = 0;
constexpr std::uint32_t k_tag_glibc_hwcaps = 1;
constexpr std::uint64_t k_hwcap_extension = std::uint64_t{1} << 62;  // DL_CACHE_HWCAP_EXTENSION
constexpr std::size_t k_max_cache_bytes = 64u << 20;

std::uint32_t le32(std::string_view b, std::size_t off) {
  auto p = reinterpret_cast<const unsigned char*>(b.data() + off);
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}
std::uint64_t le64(std::string_view b, std::size_t off) { return le32(b, off) | std::uint64_t{le32(b, off + 4)} << 32; }

sys::Error invalid(const std::string& what) { return sys::Error{sys::ErrorCode::invalid, "ld.so.cache: " + what}; }

// The NUL-terminated string at base + offset, or nullopt when it is not inside `b`.
std::optional<std::string> string_at(std::string_view b, std::size_t base, std::uint32_t offset) {
  if (base > b.size() || offset >= b.size() - base) return std::nullopt;
  auto start = base + offset;
  auto nul = b.find('\0', start);
  if (nul == std::string_view::npos) return std::nullopt;
  return std::string(b.substr(start, nul - start));
}

sys::Expected<std::vector<LdCacheEntry>> parse_old(std::string_view b) {
  std::uint32_t n = le32(b, 12);
  if (n > (b.size() - k_old_header) / k_old_entry) return invalid("old table claims " + std::to_string(n) + " entries, more than fit");
  std::size_t strings = k_old_header + std::size_t{n} * k_old_entry;
  std::vector<LdCacheEntry> out;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::size_t o = k_old_header + std::size_t{i} * k_old_entry;
    auto key = string_at(b, strings, le32(b, o + 4));
    auto value = string_at(b, strings, le32(b, o + 8));
    if (!key || !value) return invalid("old entry " + std::to_string(i) + " points outside the string table");
    out.push_back({static_cast<std::int32_t>(le32(b, o)), std::move(*key), std::move(*value), 0, 0, {}});
  }
  return out;
}

// Unlike the strings, extension_offset and the section offsets are relative to the start of the file
// (dl-cache.h cache_extension_load is given the file base); the hwcaps names are string-table offsets.
void parse_extensions(std::string_view b, std::size_t base, std::uint32_t ext_offset, LdCache& cache) {
  if (ext_offset == 0 || ext_offset % 4 != 0 || ext_offset > b.size() || b.size() - ext_offset < 8) return;
  std::size_t e = ext_offset;
  if (le32(b, e) != k_extension_magic) return;
  std::uint32_t count = le32(b, e + 4);
  if (count > (b.size() - e - 8) / 16) return;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::size_t s = e + 8 + std::size_t{i} * 16;
    std::uint32_t tag = le32(b, s), offset = le32(b, s + 8), size = le32(b, s + 12);
    if (offset > b.size() || size > b.size() - offset) continue;
    std::size_t at = offset;
    if (tag == k_tag_generator) {
      cache.generator = std::string(b.substr(at, size));
    } else if (tag == k_tag_glibc_hwcaps && size % 4 == 0) {
      for (std::uint32_t k = 0; k < size / 4; ++k) {
        auto name = string_at(b, base, le32(b, at + std::size_t{k} * 4));
        cache.hwcaps.push_back(name.value_or(""));
      }
    }
  }
}

sys::Expected<std::vector<LdCacheEntry>> parse_new(std::string_view b, std::size_t base, LdCache& cache) {
  std::string_view h = b.substr(base);
  if (h.size() < k_new_header) return invalid("truncated new-format header");
  // flags & 3: 0 unset (pre-2.33 ldconfig, native order), 1 invalid, 2 little, 3 big (dl-cache.h).
  auto endian = static_cast<unsigned char>(h[28]) & 3u;
  if (endian == 1 || endian == 3) return invalid("not a little-endian cache");
  std::uint32_t n = le32(h, 20);
  if (n > (h.size() - k_new_header) / k_new_entry) return invalid("new table claims " + std::to_string(n) + " entries, more than fit");
  parse_extensions(b, base, endian == 0 ? 0 : le32(h, 32), cache);
  std::vector<LdCacheEntry> out;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::size_t o = k_new_header + std::size_t{i} * k_new_entry;
    auto key = string_at(h, 0, le32(h, o + 4));
    auto value = string_at(h, 0, le32(h, o + 8));
    if (!key || !value) return invalid("entry " + std::to_string(i) + " points outside the string table");
    LdCacheEntry entry{static_cast<std::int32_t>(le32(h, o)), std::move(*key), std::move(*value), le32(h, o + 12), le64(h, o + 16), {}};
    // dl-cache.h dl_cache_hwcap_extension: the upper half is exactly the marker, the lower an index.
    if ((entry.hwcap >> 32) == (k_hwcap_extension >> 32)) {
      auto index = static_cast<std::uint32_t>(entry.hwcap);
      entry.hwcaps = index < cache.hwcaps.size() ? cache.hwcaps[index] : "?";
    }
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

std::int32_t cache_flags_for(bool elf64, std::uint16_t machine) {
  // _DL_CACHE_DEFAULT_ID per sysdeps/*/dl-cache.h; FLAG_* from sysdeps/generic/ldconfig.h.
  constexpr std::int32_t libc6 = 0x0003;
  switch (machine) {
    case EM_X86_64: return elf64 ? (0x0300 | libc6) : (0x0800 | libc6);  // FLAG_X8664_LIB64 / FLAG_X8664_LIBX32
    case EM_AARCH64: return 0x0a00 | libc6;                              // FLAG_AARCH64_LIB64
    case EM_PPC64: return 0x0500 | libc6;                                // FLAG_POWERPC_LIB64
    case EM_S390: return elf64 ? (0x0400 | libc6) : libc6;               // FLAG_S390_LIB64
    default: return libc6;                                               // i386, plain 32-bit ARM (soft-float)
  }
}

sys::Expected<LdCache> parse_ld_cache(std::string_view b) {
  LdCache cache;
  if (b.size() >= k_magic_new.size() && b.substr(0, k_magic_new.size()) == k_magic_new) {
    cache.format = LdCacheFormat::new_format;
    auto e = parse_new(b, 0, cache);
    if (!e) return e.error();
    cache.entries = std::move(*e);
    return cache;
  }
  if (b.size() < k_old_header || b.substr(0, k_magic_old.size()) != k_magic_old) {
    return invalid("not an ld.so cache (unknown magic)");
  }
  std::uint32_t n = le32(b, 12);
  std::uint64_t after_old = k_old_header + std::uint64_t{n} * k_old_entry;
  std::uint64_t new_at = (after_old + 7) & ~std::uint64_t{7};  // ALIGN_CACHE: __alignof__ (cache_file_new)
  if (new_at < b.size() && b.size() - new_at >= k_new_header && b.substr(new_at, k_magic_new.size()) == k_magic_new) {
    cache.format = LdCacheFormat::combined;
    auto e = parse_new(b, static_cast<std::size_t>(new_at), cache);
    if (!e) return e.error();
    cache.entries = std::move(*e);
    return cache;
  }
  cache.format = LdCacheFormat::old_format;
  auto e = parse_old(b);
  if (!e) return e.error();
  cache.entries = std::move(*e);
  return cache;
}

sys::Expected<LdCache> read_ld_cache(const sys::FileSystem& fs, std::string_view path) {
  auto f = fs.read_file(path, k_max_cache_bytes);
  if (!f) return f.error();
  if (f->truncated) return sys::Error{sys::ErrorCode::too_large, std::string(path) + ": larger than 64 MiB"};
  return parse_ld_cache(f->content);
}

}  // namespace gpudoctor::probe::loader
