// libFuzzer target for what `check --root FILE.tar.gz` unpacks and what `run`/`watch` parse from
// /proc: the bytes are extracted as an archive (any format libarchive reads) into a private
// directory with small limits, and read as a /proc/PID/stat line, a /proc/PID/maps text and a
// device path. Nothing may crash, escape the directory, or exceed the limits.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <sys/archive.hpp>
#include <watch/proc_parse.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)gpudoctor::watch::parse_stat(text);
  (void)gpudoctor::watch::gpu_libraries_in_maps(text);
  (void)gpudoctor::watch::nvidia_minor(text.substr(0, 64));
  (void)gpudoctor::watch::is_gpu_device_path(text.substr(0, 64));
  auto dir = gpudoctor::sys::TempDir::create("gpudoctor-fuzz");
  if (!dir) return 0;
  std::string file = dir->path() + "/input";
  {
    std::ofstream out(file, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  std::string into = dir->path() + "/tree";
  std::filesystem::create_directory(into);
  gpudoctor::sys::ExtractLimits limits;
  limits.data_bytes = 1u << 20;
  limits.apparent_bytes = 16u << 20;
  limits.entries = 200;
  (void)gpudoctor::sys::extract_archive(file, into, limits);
  return 0;
}
