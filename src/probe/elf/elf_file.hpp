// ElfFile: the headers of an ELF object read through a sys::FileSystem with bounded reads: the ELF
// header, the program headers and the section headers with their names. Contents are read on demand
// with read() (a range checked against the file size), so a 1 GB shared library costs kilobytes.
// Both byte orders and both classes are understood (System V gABI, "ELF Header", "Sections",
// "Program Header"; glibc <elf.h> for the constants). Every count, size and offset in the headers is
// checked before use: a truncated or hostile file gives an Error, never a read past the buffer.
//
// Malformed section headers are not fatal (the loader never reads them): sections() is then empty
// and section_error() says why.
//
// Thread-safety: a const ElfFile may be used from several threads (reads go through the FileSystem).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/error.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe::elf {

struct Section {
  std::string name;
  std::uint32_t type = 0;  // SHT_*
  std::uint64_t flags = 0;
  std::uint64_t addr = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
};

struct Segment {
  std::uint32_t type = 0;  // PT_*
  std::uint64_t offset = 0;
  std::uint64_t vaddr = 0;
  std::uint64_t filesz = 0;
  std::uint64_t memsz = 0;
};

class ElfFile {
 public:
  // The file is opened once (FileSystem::open_range_reader) and stays open while any copy lives.
  // REQUIRES: `fs` outlives the ElfFile.
  static sys::Expected<ElfFile> open(const sys::FileSystem& fs, std::string_view path);

  const std::string& path() const { return m_path; }
  bool is_64() const { return m_is64; }
  bool little_endian() const { return m_little; }
  std::uint16_t type() const { return m_type; }
  std::uint16_t machine() const { return m_machine; }
  std::uint64_t file_size() const { return m_file_size; }
  const std::vector<Segment>& segments() const { return m_segments; }
  const std::vector<Section>& sections() const { return m_sections; }
  const std::string& section_error() const { return m_section_error; }
  const Section* find_section(std::string_view name) const;

  // Exactly `length` bytes at `offset`, or invalid when the range is not inside the file.
  sys::Expected<std::string> read(std::uint64_t offset, std::size_t length) const;
  // The file offset of virtual address `vaddr` through the PT_LOAD segments, if one maps it from the file.
  std::optional<std::uint64_t> vaddr_to_offset(std::uint64_t vaddr) const;

  // Integers in the file's byte order. REQUIRES: off + N <= bytes.size().
  std::uint16_t u16(std::string_view bytes, std::size_t off) const;
  std::uint32_t u32(std::string_view bytes, std::size_t off) const;
  std::uint64_t u64(std::string_view bytes, std::size_t off) const;
  // An address-sized field (u32 or u64 by class).
  std::uint64_t word(std::string_view bytes, std::size_t off) const { return m_is64 ? u64(bytes, off) : u32(bytes, off); }

 private:
  explicit ElfFile(std::string path) : m_path(std::move(path)) {}
  sys::Expected<bool> read_header();
  sys::Expected<bool> read_segments();
  void read_sections();

  std::shared_ptr<const sys::RangeReader> m_reader;  // shared by copies; one open file
  std::string m_path;
  bool m_is64 = true;
  bool m_little = true;
  std::uint16_t m_type = 0;
  std::uint16_t m_machine = 0;
  std::uint64_t m_file_size = 0;
  std::uint64_t m_phoff = 0, m_shoff = 0;
  std::uint32_t m_phnum = 0, m_shnum = 0, m_shstrndx = 0;
  std::uint16_t m_phentsize = 0, m_shentsize = 0;
  std::vector<Segment> m_segments;
  std::vector<Section> m_sections;
  std::string m_section_error;
};

// The 16-byte e_ident check shared with quick candidate tests: magic, class 1|2, data 1|2, version 1.
// Returns the class (true = 64-bit) or invalid.
sys::Expected<bool> elf_ident_is_64(std::string_view first_bytes);

}  // namespace gpudoctor::probe::elf
