// DynamicLibrary: one dlopen'd shared object, closed when the handle goes. The only place gpudoctor
// calls dlopen/dlsym. Used by the driver probe's child process (src/probe/driver/), never by the
// main process: a vendor library that hangs or crashes must only take a child down with it.
//
// Errors keep dlerror()'s own text ("libnvidia-ml.so.1: cannot open shared object file: No such
// file or directory"), which is the evidence a user needs.
// Thread-safety: dlerror() is per thread; do not share one handle's lookups between threads.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include <sys/error.hpp>

namespace gpudoctor::sys {

class DynamicLibrary {
 public:
  // `name` without a '/' is searched as the dynamic loader would (LD_LIBRARY_PATH, ld.so.cache, ...).
  static Expected<DynamicLibrary> open(const std::string& name);

  DynamicLibrary(DynamicLibrary&& other) noexcept : m_handle(other.m_handle) { other.m_handle = nullptr; }
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  // The address of `symbol`, or nullptr when the library does not export it.
  void* find(const char* symbol) const;
  // The first of `symbols` (versioned names first) that the library exports, with its name.
  struct Found {
    void* address = nullptr;
    std::string_view name;
  };
  Found find_first(std::initializer_list<const char*> names) const;
  // The file the loader picked (dlinfo RTLD_DI_LINKMAP), "" when it cannot say.
  std::string path() const;

 private:
  explicit DynamicLibrary(void* handle) : m_handle(handle) {}
  void* m_handle = nullptr;
};

}  // namespace gpudoctor::sys
