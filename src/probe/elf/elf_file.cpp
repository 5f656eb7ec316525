#include <probe/elf/elf_file.hpp>

#include <elf.h>

#include <algorithm>
#include <cstring>

namespace gpudoctor::probe::elf {
namespace {

// Bounds on what a sane object has; a header claiming more is hostile or corrupt.
constexpr std::uint32_t k_max_segments = 4096;
constexpr std::uint32_t k_max_sections = 1u << 20;
constexpr std::size_t k_max_shstrtab = 16u << 20;

sys::Error invalid(std::string_view path, std::string_view what) {
  return sys::Error{sys::ErrorCode::invalid, std::string(path) + ": " + std::string(what)};
}

bool range_ok(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
  return offset <= size && length <= size - offset;
}

}  // namespace

sys::Expected<bool> elf_ident_is_64(std::string_view b) {
  if (b.size() < EI_NIDENT) return sys::Error{sys::ErrorCode::invalid, "shorter than an ELF header"};
  if (std::memcmp(b.data(), ELFMAG, SELFMAG) != 0) return sys::Error{sys::ErrorCode::invalid, "not an ELF file"};
  auto cls = static_cast<unsigned char>(b[EI_CLASS]);
  auto data = static_cast<unsigned char>(b[EI_DATA]);
  if (cls != ELFCLASS32 && cls != ELFCLASS64) return sys::Error{sys::ErrorCode::invalid, "unknown ELF class"};
  if (data != ELFDATA2LSB && data != ELFDATA2MSB) return sys::Error{sys::ErrorCode::invalid, "unknown ELF byte order"};
  if (static_cast<unsigned char>(b[EI_VERSION]) != EV_CURRENT) return sys::Error{sys::ErrorCode::invalid, "unknown ELF version"};
  return cls == ELFCLASS64;
}

std::uint16_t ElfFile::u16(std::string_view b, std::size_t off) const {
  auto p = reinterpret_cast<const unsigned char*>(b.data() + off);
  return m_little ? static_cast<std::uint16_t>(p[0] | (p[1] << 8)) : static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}

std::uint32_t ElfFile::u32(std::string_view b, std::size_t off) const {
  auto p = reinterpret_cast<const unsigned char*>(b.data() + off);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t{p[m_little ? i : 3 - i]} << (8 * i);
  return v;
}

std::uint64_t ElfFile::u64(std::string_view b, std::size_t off) const {
  auto p = reinterpret_cast<const unsigned char*>(b.data() + off);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{p[m_little ? i : 7 - i]} << (8 * i);
  return v;
}

sys::Expected<ElfFile> ElfFile::open(const sys::FileSystem& fs, std::string_view path) {
  ElfFile f{std::string(path)};
  auto st = fs.stat(path);
  if (!st) return st.error();
  if (st->type != sys::FileType::regular) return invalid(path, "not a regular file");
  auto reader = fs.open_range_reader(path);
  if (!reader) return reader.error();
  f.m_file_size = (*reader)->size();
  f.m_reader = std::move(*reader);
  if (auto h = f.read_header(); !h) return h.error();
  if (auto s = f.read_segments(); !s) return s.error();
  f.read_sections();
  return f;
}

sys::Expected<std::string> ElfFile::read(std::uint64_t offset, std::size_t length) const {
  if (!range_ok(offset, length, m_file_size)) {
    return invalid(m_path, "range " + std::to_string(offset) + "+" + std::to_string(length) + " is past the end of the file");
  }
  auto bytes = m_reader->read(offset, length);
  if (!bytes) return bytes.error();
  if (bytes->size() != length) return invalid(m_path, "file shrank while reading");
  return bytes;
}

sys::Expected<bool> ElfFile::read_header() {
  auto b = read(0, std::min<std::uint64_t>(m_file_size, sizeof(Elf64_Ehdr)));
  if (!b) return b.error();
  auto is64 = elf_ident_is_64(*b);
  if (!is64) return invalid(m_path, is64.error().message);
  m_is64 = *is64;
  m_little = static_cast<unsigned char>((*b)[EI_DATA]) == ELFDATA2LSB;
  std::string_view h = *b;
  if (h.size() < (m_is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr))) return invalid(m_path, "truncated ELF header");
  m_type = u16(h, offsetof(Elf64_Ehdr, e_type));
  m_machine = u16(h, offsetof(Elf64_Ehdr, e_machine));
  if (m_is64) {
    m_phoff = u64(h, offsetof(Elf64_Ehdr, e_phoff));
    m_shoff = u64(h, offsetof(Elf64_Ehdr, e_shoff));
    m_phentsize = u16(h, offsetof(Elf64_Ehdr, e_phentsize));
    m_phnum = u16(h, offsetof(Elf64_Ehdr, e_phnum));
    m_shentsize = u16(h, offsetof(Elf64_Ehdr, e_shentsize));
    m_shnum = u16(h, offsetof(Elf64_Ehdr, e_shnum));
    m_shstrndx = u16(h, offsetof(Elf64_Ehdr, e_shstrndx));
  } else {
    m_phoff = u32(h, offsetof(Elf32_Ehdr, e_phoff));
    m_shoff = u32(h, offsetof(Elf32_Ehdr, e_shoff));
    m_phentsize = u16(h, offsetof(Elf32_Ehdr, e_phentsize));
    m_phnum = u16(h, offsetof(Elf32_Ehdr, e_phnum));
    m_shentsize = u16(h, offsetof(Elf32_Ehdr, e_shentsize));
    m_shnum = u16(h, offsetof(Elf32_Ehdr, e_shnum));
    m_shstrndx = u16(h, offsetof(Elf32_Ehdr, e_shstrndx));
  }
  return true;
}

sys::Expected<bool> ElfFile::read_segments() {
  if (m_phnum == 0 || m_phoff == 0) return true;
  // PN_XNUM: the real count is in section header 0's sh_info (gABI "Extended program header numbering").
  if (m_phnum == PN_XNUM) return invalid(m_path, "extended program header numbering is not supported");
  std::size_t want = m_is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
  if (m_phentsize < want) return invalid(m_path, "program header entry size " + std::to_string(m_phentsize) + " is too small");
  if (m_phnum > k_max_segments) return invalid(m_path, "too many program headers");
  std::uint64_t total = std::uint64_t{m_phentsize} * m_phnum;
  auto b = read(m_phoff, static_cast<std::size_t>(total));
  if (!b) return invalid(m_path, "program headers: " + b.error().message);
  std::string_view t = *b;
  for (std::uint32_t i = 0; i < m_phnum; ++i) {
    std::size_t o = std::size_t{i} * m_phentsize;
    Segment s;
    s.type = u32(t, o);
    if (m_is64) {
      s.offset = u64(t, o + offsetof(Elf64_Phdr, p_offset));
      s.vaddr = u64(t, o + offsetof(Elf64_Phdr, p_vaddr));
      s.filesz = u64(t, o + offsetof(Elf64_Phdr, p_filesz));
      s.memsz = u64(t, o + offsetof(Elf64_Phdr, p_memsz));
    } else {
      s.offset = u32(t, o + offsetof(Elf32_Phdr, p_offset));
      s.vaddr = u32(t, o + offsetof(Elf32_Phdr, p_vaddr));
      s.filesz = u32(t, o + offsetof(Elf32_Phdr, p_filesz));
      s.memsz = u32(t, o + offsetof(Elf32_Phdr, p_memsz));
    }
    m_segments.push_back(s);
  }
  return true;
}

void ElfFile::read_sections() {
  if (m_shoff == 0) return;
  std::size_t want = m_is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  if (m_shentsize < want) {
    m_section_error = "section header entry size " + std::to_string(m_shentsize) + " is too small";
    return;
  }
  auto parse = [&](std::string_view t, std::size_t o) {
    Section s;
    if (m_is64) {
      s.type = u32(t, o + offsetof(Elf64_Shdr, sh_type));
      s.flags = u64(t, o + offsetof(Elf64_Shdr, sh_flags));
      s.addr = u64(t, o + offsetof(Elf64_Shdr, sh_addr));
      s.offset = u64(t, o + offsetof(Elf64_Shdr, sh_offset));
      s.size = u64(t, o + offsetof(Elf64_Shdr, sh_size));
      s.link = u32(t, o + offsetof(Elf64_Shdr, sh_link));
    } else {
      s.type = u32(t, o + offsetof(Elf32_Shdr, sh_type));
      s.flags = u32(t, o + offsetof(Elf32_Shdr, sh_flags));
      s.addr = u32(t, o + offsetof(Elf32_Shdr, sh_addr));
      s.offset = u32(t, o + offsetof(Elf32_Shdr, sh_offset));
      s.size = u32(t, o + offsetof(Elf32_Shdr, sh_size));
      s.link = u32(t, o + offsetof(Elf32_Shdr, sh_link));
    }
    return s;
  };
  std::uint64_t count = m_shnum;
  std::uint32_t strndx = m_shstrndx;
  if (count == 0 || strndx == SHN_XINDEX) {
    // gABI: e_shnum 0 -> the count is section 0's sh_size; e_shstrndx SHN_XINDEX -> its sh_link.
    auto first = read(m_shoff, m_shentsize);
    if (!first) {
      m_section_error = "section headers: " + first.error().message;
      return;
    }
    Section zero = parse(*first, 0);
    if (count == 0) count = zero.size;
    if (strndx == SHN_XINDEX) strndx = zero.link;
  }
  if (count == 0) return;
  if (count > k_max_sections) {
    m_section_error = "too many section headers";
    return;
  }
  auto b = read(m_shoff, static_cast<std::size_t>(count * m_shentsize));
  if (!b) {
    m_section_error = "section headers: " + b.error().message;
    return;
  }
  std::vector<Section> sections;
  sections.reserve(static_cast<std::size_t>(count));
  for (std::uint64_t i = 0; i < count; ++i) sections.push_back(parse(*b, static_cast<std::size_t>(i * m_shentsize)));
  if (strndx >= sections.size()) {
    m_section_error = "section name table index " + std::to_string(strndx) + " is out of range";
    return;
  }
  const Section& names = sections[strndx];
  if (names.type == SHT_NOBITS || names.size > k_max_shstrtab) {
    m_section_error = "section name table is unusable";
    return;
  }
  auto strtab = read(names.offset, static_cast<std::size_t>(names.size));
  if (!strtab) {
    m_section_error = "section name table: " + strtab.error().message;
    return;
  }
  for (std::size_t i = 0; i < sections.size(); ++i) {
    std::size_t o = static_cast<std::size_t>(i * m_shentsize);
    std::uint32_t name_off = u32(*b, o);
    if (name_off < strtab->size()) {
      auto end = strtab->find('\0', name_off);
      if (end != std::string::npos) sections[i].name = strtab->substr(name_off, end - name_off);
    }
  }
  m_sections = std::move(sections);
}

const Section* ElfFile::find_section(std::string_view name) const {
  for (const auto& s : m_sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::optional<std::uint64_t> ElfFile::vaddr_to_offset(std::uint64_t vaddr) const {
  for (const auto& s : m_segments) {
    if (s.type != PT_LOAD) continue;
    if (vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz) return s.offset + (vaddr - s.vaddr);
  }
  return std::nullopt;
}

}  // namespace gpudoctor::probe::elf
