// The dynamic section is found through PT_DYNAMIC and its strings through DT_STRTAB mapped by the
// PT_LOAD segments, as ld.so does (elf/get-dynamic-info.h); section headers, which a stripped
// (sstrip) object may lack and the loader never reads, are used only when there are no program headers.
#include <probe/loader/elf_info.hpp>

#include <elf.h>

#include <algorithm>

#include <probe/elf/elf_file.hpp>
#include <util/text.hpp>

namespace gpudoctor::probe::loader {
namespace {

constexpr std::uint64_t k_max_dynamic_bytes = 1u << 20;
constexpr std::size_t k_max_string = 64 * 1024;

sys::Error invalid(std::string_view path, const std::string& what) {
  return sys::Error{sys::ErrorCode::invalid, std::string(path) + ": " + what};
}

// A NUL-terminated string at `offset` inside a string table of `size` bytes at file offset `base`.
sys::Expected<std::string> read_string(const elf::ElfFile& f, std::uint64_t base, std::uint64_t size, std::uint64_t offset) {
  if (offset >= size) return invalid(f.path(), "dynamic string offset " + std::to_string(offset) + " is outside DT_STRTAB");
  std::size_t chunk = 256;
  while (true) {
    std::uint64_t avail = std::min<std::uint64_t>({size - offset, std::uint64_t{chunk}, f.file_size() - std::min(f.file_size(), base + offset)});
    auto b = f.read(base + offset, static_cast<std::size_t>(avail));
    if (!b) return b.error();
    auto nul = b->find('\0');
    if (nul != std::string::npos) return b->substr(0, nul);
    if (avail < chunk || chunk >= k_max_string) return invalid(f.path(), "unterminated dynamic string");
    chunk *= 4;
  }
}

std::vector<std::string> split_path_list(const std::string& s) {
  // glibc splits DT_RPATH/DT_RUNPATH on ':' only (elf/dl-load.c, fillin_rpath); empty entries are dropped
  // there too (they would mean the working directory in LD_LIBRARY_PATH, not here).
  std::vector<std::string> out;
  for (auto part : util::split(s, ':')) {
    if (!part.empty()) out.emplace_back(part);
  }
  return out;
}

}  // namespace

std::string class_name(ElfClass c) { return c == ElfClass::elf64 ? "ELFCLASS64" : "ELFCLASS32"; }

std::string machine_name(std::uint16_t machine) {
  switch (machine) {
    case EM_386: return "EM_386";
    case EM_X86_64: return "EM_X86_64";
    case EM_AARCH64: return "EM_AARCH64";
    case EM_ARM: return "EM_ARM";
    case EM_PPC64: return "EM_PPC64";
    case EM_S390: return "EM_S390";
    case EM_RISCV: return "EM_RISCV";
    default: return "machine " + std::to_string(machine);
  }
}

sys::Expected<ElfInfo> read_elf_info(const sys::FileSystem& fs, std::string_view path) {
  auto file = elf::ElfFile::open(fs, path);
  if (!file) return file.error();
  const elf::ElfFile& f = *file;
  ElfInfo info;
  info.path = std::string(path);
  info.elf_class = f.is_64() ? ElfClass::elf64 : ElfClass::elf32;
  info.machine = f.machine();
  info.type = f.type();

  std::uint64_t dyn_off = 0, dyn_size = 0;
  bool have_dynamic = false;
  for (const auto& s : f.segments()) {
    if (s.type == PT_DYNAMIC) {
      dyn_off = s.offset;
      dyn_size = s.filesz;
      have_dynamic = true;
    } else if (s.type == PT_INTERP && s.filesz > 0 && s.filesz < 4096) {
      auto b = f.read(s.offset, static_cast<std::size_t>(s.filesz));
      if (!b) return b.error();
      info.interpreter = b->substr(0, b->find('\0'));
    }
  }
  std::optional<std::uint64_t> strtab_from_section;
  if (!have_dynamic && f.segments().empty()) {
    for (const auto& s : f.sections()) {
      if (s.type != SHT_DYNAMIC) continue;
      dyn_off = s.offset;
      dyn_size = s.size;
      have_dynamic = true;
      if (s.link < f.sections().size()) strtab_from_section = f.sections()[s.link].offset;
      break;
    }
  }
  if (!have_dynamic) return info;  // a static executable or an object without dependencies
  if (dyn_size > k_max_dynamic_bytes) return invalid(path, "dynamic segment is implausibly large");
  auto dyn = f.read(dyn_off, static_cast<std::size_t>(dyn_size));
  if (!dyn) return invalid(path, "dynamic segment: " + dyn.error().message);

  std::size_t entsize = f.is_64() ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
  std::size_t half = entsize / 2;
  std::uint64_t strtab = 0, strsz = 0;
  bool have_strtab = false;
  std::vector<std::uint64_t> needed;
  std::optional<std::uint64_t> soname, rpath, runpath;
  for (std::size_t o = 0; o + entsize <= dyn->size(); o += entsize) {
    std::uint64_t tag = f.word(*dyn, o);
    std::uint64_t val = f.word(*dyn, o + half);
    if (tag == DT_NULL) break;
    switch (tag) {
      case DT_NEEDED: needed.push_back(val); break;
      case DT_SONAME: soname = val; break;
      case DT_RPATH: rpath = val; break;
      case DT_RUNPATH: runpath = val; break;
      case DT_STRTAB: strtab = val; have_strtab = true; break;
      case DT_STRSZ: strsz = val; break;
      case DT_FLAGS_1: info.nodeflib = (val & DF_1_NODEFLIB) != 0; break;
      default: break;
    }
  }
  if (needed.empty() && !soname && !rpath && !runpath) return info;
  if (!have_strtab) return invalid(path, "dynamic section has strings but no DT_STRTAB");
  std::uint64_t base = 0;
  if (strtab_from_section) {
    base = *strtab_from_section;
  } else {
    auto mapped = f.vaddr_to_offset(strtab);
    if (!mapped) return invalid(path, "DT_STRTAB address is not in any PT_LOAD segment");
    base = *mapped;
  }
  if (base >= f.file_size()) return invalid(path, "DT_STRTAB is past the end of the file");
  strsz = std::min(strsz, f.file_size() - base);
  auto str = [&](std::uint64_t off) { return read_string(f, base, strsz, off); };
  for (auto n : needed) {
    auto s = str(n);
    if (!s) return s.error();
    info.needed.push_back(std::move(*s));
  }
  if (soname) {
    auto s = str(*soname);
    if (!s) return s.error();
    info.soname = std::move(*s);
  }
  if (rpath) {
    auto s = str(*rpath);
    if (!s) return s.error();
    info.has_rpath = true;
    info.rpath = split_path_list(*s);
  }
  if (runpath) {
    auto s = str(*runpath);
    if (!s) return s.error();
    info.has_runpath = true;
    info.runpath = split_path_list(*s);
  }
  return info;
}

}  // namespace gpudoctor::probe::loader
