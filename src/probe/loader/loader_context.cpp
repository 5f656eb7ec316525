// The parts of the loader's configuration that are not in the object being loaded: the search
// directories glibc was built with, $LIB/$PLATFORM, LD_LIBRARY_PATH, the cache. Default directories:
// Debian-style multiarch builds put SYSTEM_DIRS = /lib/<triplet>, /usr/lib/<triplet>, /lib, /usr/lib
// (as `ld.so --help` prints, "system search path"); Fedora/RHEL-style 64-bit builds /lib64, /usr/lib64.
// $ORIGIN/$LIB/$PLATFORM syntax: elf/dl-load.c _dl_dst_substitute and is_dst (a name, braced or not,
// that ends at '/' or the end of the entry). What $PLATFORM is on x86-64: glibc 2.26 and later
// (sysdeps/x86/cpu-features.c, init_cpu_features) replace the kernel's AT_PLATFORM "x86_64" with
// "xeon_phi" (AVX512CD+ER+PF) or "haswell" (AVX2, FMA, BMI1, BMI2, LZCNT, MOVBE, POPCNT), on Intel
// CPUs only; the CPU's flags are read from /proc/cpuinfo, so a captured machine answers for itself.
#include <probe/loader/resolver.hpp>

#include <elf.h>

#include <algorithm>

#include <util/path.hpp>
#include <util/text.hpp>

namespace gpudoctor::probe::loader {
namespace {

struct MachineLayout {
  std::uint16_t machine;
  std::string_view triplet;
  std::string_view platform;
  std::string_view interpreter;
};

constexpr MachineLayout k_layouts[] = {
    {EM_X86_64, "x86_64-linux-gnu", "x86_64", "/lib64/ld-linux-x86-64.so.2"},
    {EM_AARCH64, "aarch64-linux-gnu", "aarch64", "/lib/ld-linux-aarch64.so.1"},
    {EM_PPC64, "powerpc64le-linux-gnu", "power9", "/lib64/ld64.so.2"},
    {EM_386, "i386-linux-gnu", "i686", "/lib/ld-linux.so.2"},
};

// Length of the DST name at `s` ("ORIGIN" or "{ORIGIN}" after the '$') if it is `name`, else 0.
std::size_t dst_length(std::string_view s, std::string_view name) {
  if (s.starts_with(name) && (s.size() == name.size() || s[name.size()] == '/')) return name.size();
  if (s.size() >= name.size() + 2 && s[0] == '{' && s.substr(1, name.size()) == name && s[name.size() + 1] == '}') {
    return name.size() + 2;
  }
  return 0;
}

// The value of "KEY\t: value" in the first processor block of /proc/cpuinfo.
std::string_view cpuinfo_field(std::string_view text, std::string_view key) {
  for (auto line : util::split(text, '\n')) {
    if (line.empty()) break;  // end of the first processor's block
    auto colon = line.find(':');
    if (colon == std::string_view::npos || util::trim(line.substr(0, colon)) != key) continue;
    return util::trim(line.substr(colon + 1));
  }
  return {};
}

std::string x86_64_platform(const sys::FileSystem& fs) {
  // The first processor's block is within the first few KiB; reading no further keeps the kernel
  // from formatting (and measuring the clock of) every other CPU. (read_range would see procfs's
  // zero st_size and read nothing.)
  auto text = fs.read_text("/proc/cpuinfo", 16 * 1024);
  if (!text || cpuinfo_field(*text, "vendor_id") != "GenuineIntel") return "x86_64";
  std::vector<std::string_view> flags = util::split_ws(cpuinfo_field(*text, "flags"));
  auto has = [&](std::string_view f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); };
  if (has("avx512cd") && has("avx512er") && has("avx512pf")) return "xeon_phi";
  // The kernel calls LZCNT "abm" (X86_FEATURE_ABM).
  if (has("avx2") && has("fma") && has("bmi1") && has("bmi2") && has("abm") && has("movbe") && has("popcnt")) {
    return "haswell";
  }
  return "x86_64";
}

}  // namespace

std::string expand_dynamic_string(std::string_view entry, std::string_view origin, const LoaderContext& ctx) {
  std::string out;
  for (std::size_t i = 0; i < entry.size(); ++i) {
    if (entry[i] != '$') {
      out += entry[i];
      continue;
    }
    auto rest = entry.substr(i + 1);
    std::size_t n = 0;
    if ((n = dst_length(rest, "ORIGIN")) != 0) {
      out += origin;
    } else if ((n = dst_length(rest, "PLATFORM")) != 0) {
      out += ctx.platform;
    } else if ((n = dst_length(rest, "LIB")) != 0) {
      out += ctx.lib;
    } else {
      out += '$';
      continue;
    }
    i += n;
  }
  return out;
}

LoaderContext make_loader_context(const sys::FileSystem& fs, std::string_view ld_library_path, std::uint16_t machine) {
  LoaderContext ctx;
  if (!ld_library_path.empty()) {
    // elf/dl-load.c _dl_init_paths: LD_LIBRARY_PATH is split on ':' and ';'.
    std::string_view rest = ld_library_path;
    while (true) {
      auto cut = rest.find_first_of(":;");
      ctx.ld_library_path.emplace_back(rest.substr(0, cut));
      if (cut == std::string_view::npos) break;
      rest.remove_prefix(cut + 1);
    }
  }
  auto cache = read_ld_cache(fs);
  if (cache) ctx.cache = std::move(*cache);
  const MachineLayout* layout = nullptr;
  for (const auto& l : k_layouts) {
    if (l.machine == machine) layout = &l;
  }
  if (layout == nullptr) layout = &k_layouts[0];
  ctx.platform = layout->machine == EM_X86_64 ? x86_64_platform(fs) : std::string(layout->platform);
  ctx.interpreter = std::string(layout->interpreter);
  std::string multiarch = "/lib/" + std::string(layout->triplet);
  auto st = fs.stat(multiarch);
  if (st && st->type == sys::FileType::directory) {
    ctx.lib = "lib/" + std::string(layout->triplet);
    ctx.default_dirs = {multiarch, "/usr" + multiarch, "/lib", "/usr/lib"};
  } else if (machine == EM_X86_64 || machine == EM_PPC64) {
    ctx.lib = "lib64";
    ctx.default_dirs = {"/lib64", "/usr/lib64"};
  } else {
    ctx.lib = "lib";
    ctx.default_dirs = {"/lib", "/usr/lib"};
  }
  return ctx;
}

}  // namespace gpudoctor::probe::loader
