// Container and entry layouts: NVIDIA's fatbinary.h as quoted by LLVM (clang/lib/CodeGen/CGCUDANV.cpp,
// "the fatbinary ... FATBIN_MAGIC 0xBA55ED50"), ZLUDA (cuda_types/src/dark_api.rs FatbinHeader,
// FatbinFileHeader) and jiegec/fatbinary (src/lib.rs); one .nv_fatbin section holds several
// containers back to back, each 8-byte aligned (n-eiling/cuda-fatbin-decompression main.c).
// Flag bits beyond those sources were read off nvcc 13.0 output (tests/fixtures/fatbin/README.md):
// 0x8000 compressed (the default for PTX since CUDA 12.x; -Xfatbin -compress-all for cubins too),
// 0x2000 compressed (older LZ4 form), 0x100000 arch-specific (sm_90a, compute_100a), 0x200000
// family-specific (sm_100f, compute_120f); 0x1000000 marks the longer sm_100+ entry header and is
// not a variant.
#include <probe/fatbin/fatbin_reader.hpp>

#include <algorithm>
#include <cstring>
#include <functional>

#include <probe/elf/elf_file.hpp>

namespace gpudoctor::probe::fatbin {
namespace {

constexpr std::uint32_t k_fatbin_magic = 0xBA55ED50u;  // FATBIN_MAGIC
constexpr std::uint16_t k_fatbin_version = 1;          // FATBIN_VERSION
constexpr std::size_t k_container_header = 16;         // sizeof (fatBinaryHeader)
constexpr std::size_t k_entry_header = 64;             // the fixed part of every entry header
constexpr std::uint32_t k_max_entry_header = 64 * 1024;
constexpr std::uint64_t k_flag_compressed_lz4 = 0x2000;
constexpr std::uint64_t k_flag_compressed_zstd = 0x8000;
constexpr std::uint64_t k_flag_arch_specific = 0x100000;
constexpr std::uint64_t k_flag_family_specific = 0x200000;
// Entries in big libraries are ~25 KiB apart (libcublasLt: 5,737 entries in 140 MB), so a small
// window reads little beyond the headers themselves.
constexpr std::size_t k_window = 4 * 1024;
// The most entries one file may list. libtorch_cuda.so, the biggest CUDA library people ship, has
// tens of thousands; a hostile file can claim far more by packing minimal entries, and each costs
// memory here.
constexpr std::size_t k_max_entries = 1u << 20;

std::uint16_t le16(std::string_view b, std::size_t o) {
  auto p = reinterpret_cast<const unsigned char*>(b.data() + o);
  return static_cast<std::uint16_t>(p[0] | p[1] << 8);
}
std::uint32_t le32(std::string_view b, std::size_t o) {
  return std::uint32_t{le16(b, o)} | std::uint32_t{le16(b, o + 2)} << 16;
}
std::uint64_t le64(std::string_view b, std::size_t o) { return le32(b, o) | std::uint64_t{le32(b, o + 4)} << 32; }

// Reads a section through a small window, so that runs of adjacent headers cost one read.
class SectionBytes {
 public:
  using Fetch = std::function<sys::Expected<std::string>(std::uint64_t, std::size_t)>;
  SectionBytes(std::uint64_t size, Fetch fetch) : m_size(size), m_fetch(std::move(fetch)) {}
  std::uint64_t size() const { return m_size; }

  // REQUIRES: off + n <= size(), n <= k_window.
  sys::Expected<std::string_view> at(std::uint64_t off, std::size_t n) {
    if (off < m_start || off + n > m_start + m_buf.size()) {
      auto len = static_cast<std::size_t>(std::min<std::uint64_t>(k_window, m_size - off));
      auto b = m_fetch(off, len);
      if (!b) return b.error();
      if (b->size() < n) return sys::Error{sys::ErrorCode::invalid, "short read"};
      m_buf = std::move(*b);
      m_start = off;
    }
    return std::string_view(m_buf).substr(static_cast<std::size_t>(off - m_start), n);
  }

 private:
  std::uint64_t m_size;
  Fetch m_fetch;
  std::string m_buf;
  std::uint64_t m_start = 0;
};

sys::Error invalid(std::string_view where, std::uint64_t off, const std::string& what) {
  return sys::Error{sys::ErrorCode::invalid, std::string(where) + " at offset " + std::to_string(off) + ": " + what};
}

facts::FatbinEntry decode_entry(std::string_view h) {
  facts::FatbinEntry e;
  e.raw_kind = le16(h, 0x00);
  e.kind = e.raw_kind == 1   ? facts::FatbinEntryKind::ptx
           : e.raw_kind == 2 ? facts::FatbinEntryKind::cubin
           : e.raw_kind == 8 ? facts::FatbinEntryKind::lto_ir
                             : facts::FatbinEntryKind::other;
  e.payload_size = le64(h, 0x08);
  e.version_minor = le16(h, 0x18);
  e.version_major = le16(h, 0x1a);
  e.arch = static_cast<int>(std::min<std::uint32_t>(le32(h, 0x1c), 1u << 20));
  std::uint64_t flags = le64(h, 0x28);
  e.compressed = (flags & (k_flag_compressed_lz4 | k_flag_compressed_zstd)) != 0;
  if (flags & k_flag_arch_specific) e.variant = facts::ArchVariant::arch_specific;
  else if (flags & k_flag_family_specific) e.variant = facts::ArchVariant::family_specific;
  return e;
}

// Walks the containers of one section. Zero padding between containers is skipped 8 bytes at a time,
// as the loader's own reader resynchronises; a header whose sizes run past the section is an error.
sys::Expected<bool> walk(SectionBytes& bytes, std::string_view where, facts::FatbinSummary& out) {
  std::uint64_t off = 0;
  const std::uint64_t size = bytes.size();
  while (size - off >= k_container_header) {
    auto h = bytes.at(off, k_container_header);
    if (!h) return invalid(where, off, h.error().message);
    if (le32(*h, 0) != k_fatbin_magic) {
      off += 8;
      continue;
    }
    std::uint16_t version = le16(*h, 4);
    std::uint16_t header_size = le16(*h, 6);
    std::uint64_t fat_size = le64(*h, 8);
    if (version != k_fatbin_version) return invalid(where, off, "fatbin version " + std::to_string(version) + ", expected 1");
    if (header_size < k_container_header || header_size > size - off) {
      return invalid(where, off, "fatbin header size " + std::to_string(header_size) + " is invalid");
    }
    std::uint64_t begin = off + header_size;
    if (fat_size > size - begin) {
      return invalid(where, off, "fatbin claims " + std::to_string(fat_size) + " bytes, the section has " + std::to_string(size - begin) + " left (truncated?)");
    }
    const std::uint64_t end = begin + fat_size;
    ++out.containers;
    for (std::uint64_t e = begin; e < end;) {
      if (end - e < k_entry_header) return invalid(where, e, "truncated fatbin entry header");
      auto eh = bytes.at(e, k_entry_header);
      if (!eh) return invalid(where, e, eh.error().message);
      std::uint32_t entry_header = le32(*eh, 0x04);
      std::uint64_t payload = le64(*eh, 0x08);
      if (entry_header < k_entry_header || entry_header > k_max_entry_header || entry_header > end - e) {
        return invalid(where, e, "fatbin entry header size " + std::to_string(entry_header) + " is invalid");
      }
      if (payload > end - e - entry_header) {
        return invalid(where, e, "fatbin entry payload of " + std::to_string(payload) + " bytes runs past its container");
      }
      if (out.entries.size() >= k_max_entries) {
        return invalid(where, e, "more than " + std::to_string(k_max_entries) + " fatbin entries; not listing further");
      }
      out.entries.push_back(decode_entry(*eh));
      e += entry_header + payload;
    }
    off = end + ((8 - end % 8) % 8);
    if (off > size) break;
  }
  return true;
}

}  // namespace

sys::Expected<facts::FatbinSummary> parse_fatbin_section(std::string_view bytes) {
  facts::FatbinSummary out;
  SectionBytes source(bytes.size(), [bytes](std::uint64_t off, std::size_t n) -> sys::Expected<std::string> {
    return std::string(bytes.substr(static_cast<std::size_t>(off), n));
  });
  auto ok = walk(source, "fatbin", out);
  if (!ok) return ok.error();
  return out;
}

sys::Expected<facts::FatbinSummary> read_fatbin(const sys::FileSystem& fs, std::string_view path) {
  auto file = elf::ElfFile::open(fs, path);
  if (!file) return file.error();
  facts::FatbinSummary out;
  out.path = std::string(path);
  if (file->sections().empty() && !file->section_error().empty()) {
    return sys::Error{sys::ErrorCode::invalid, std::string(path) + ": " + file->section_error()};
  }
  // .nv_fatbin (whole-program device code) and __nv_relfatbin (-rdc); names from clang's CGCUDANV.cpp.
  // Each byte of the file is walked once, however many section headers point at it: sections that
  // overlap (never in a linker's output, cheap to forge) are merged into one range first.
  struct Range {
    std::uint64_t begin, end;
    std::string name;
  };
  std::vector<Range> ranges;
  for (const auto& s : file->sections()) {
    if (s.name != ".nv_fatbin" && s.name != "__nv_relfatbin") continue;
    if (s.type == 8 /* SHT_NOBITS */) continue;
    if (s.offset > file->file_size() || s.size > file->file_size() - s.offset) {
      return sys::Error{sys::ErrorCode::invalid, std::string(path) + ": section " + s.name + " runs past the end of the file"};
    }
    if (std::find(out.sections.begin(), out.sections.end(), s.name) == out.sections.end()) out.sections.push_back(s.name);
    if (s.size > 0) ranges.push_back({s.offset, s.offset + s.size, s.name});
  }
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  std::vector<Range> merged;
  for (auto& r : ranges) {
    if (!merged.empty() && r.begin < merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(std::move(r));
    }
  }
  const elf::ElfFile& f = *file;
  for (const auto& r : merged) {
    std::uint64_t base = r.begin;
    SectionBytes source(r.end - r.begin, [&f, base](std::uint64_t off, std::size_t n) { return f.read(base + off, n); });
    auto ok = walk(source, std::string(path) + " " + r.name, out);
    if (!ok) return ok.error();
  }
  return out;
}

}  // namespace gpudoctor::probe::fatbin
