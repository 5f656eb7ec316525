// Symbols: looks up a vendor library's entry points into typed function pointers, the versioned
// name first, and records which ones are missing (required ones stop the probe).
#pragma once

#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <facts/driver_facts.hpp>
#include <sys/dynamic_library.hpp>

namespace gpudoctor::probe {

// Opens `library` for a probe and records the outcome in `load`: the requested name, and either the
// file the loader picked or the dlerror() text. nullopt when it could not be opened.
inline std::optional<sys::DynamicLibrary> open_library(const std::string& library, facts::LibraryLoad& load) {
  load.requested = library;
  auto lib = sys::DynamicLibrary::open(library);
  if (!lib) {
    load.path = facts::Known<std::string>::unknown(lib.error().message);
    return std::nullopt;
  }
  load.path = lib->path();
  return std::move(lib.value());
}

class Symbols {
 public:
  Symbols(const sys::DynamicLibrary& lib, facts::LibraryLoad& load) : m_lib(lib), m_load(load) {}

  // Each returns the name that was found ("" when none was).
  template <typename Fn>
  std::string_view required(Fn& fn, std::initializer_list<const char*> names) {
    return bind(fn, names, m_load.missing_required);
  }
  template <typename Fn>
  std::string_view optional(Fn& fn, std::initializer_list<const char*> names) {
    return bind(fn, names, m_load.missing_optional);
  }

 private:
  template <typename Fn>
  std::string_view bind(Fn& fn, std::initializer_list<const char*> names, std::vector<std::string>& missing) {
    auto found = m_lib.find_first(names);
    if (found.address == nullptr) {
      fn = nullptr;
      missing.emplace_back(*names.begin());
      return {};
    }
    // dlsym returns an object pointer; POSIX guarantees it converts to the function's type.
    static_assert(sizeof(Fn) == sizeof(void*));
    std::memcpy(&fn, &found.address, sizeof fn);
    return found.name;
  }

  const sys::DynamicLibrary& m_lib;
  facts::LibraryLoad& m_load;
};

}  // namespace gpudoctor::probe
