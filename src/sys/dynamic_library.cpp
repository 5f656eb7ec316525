#include <sys/dynamic_library.hpp>

#include <dlfcn.h>
#include <link.h>

namespace gpudoctor::sys {

Expected<DynamicLibrary> DynamicLibrary::open(const std::string& name) {
  dlerror();
  // RTLD_LOCAL: the vendor's symbols must not interpose on anything else loaded later (libcudart
  // loads libcuda.so.1 itself by name).
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return Error{ErrorCode::unavailable, why ? why : "dlopen " + name + " failed"};
  }
  return DynamicLibrary(handle);
}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    if (m_handle) dlclose(m_handle);
    m_handle = other.m_handle;
    other.m_handle = nullptr;
  }
  return *this;
}

DynamicLibrary::~DynamicLibrary() {
  if (m_handle) dlclose(m_handle);
}

void* DynamicLibrary::find(const char* symbol) const {
  if (m_handle == nullptr) return nullptr;
  dlerror();
  return dlsym(m_handle, symbol);
}

DynamicLibrary::Found DynamicLibrary::find_first(std::initializer_list<const char*> names) const {
  for (const char* name : names) {
    if (void* address = find(name)) return Found{address, name};
  }
  return {};
}

std::string DynamicLibrary::path() const {
  struct link_map* map = nullptr;
  if (m_handle == nullptr || dlinfo(m_handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr) {
    return {};
  }
  return map->l_name;
}

}  // namespace gpudoctor::sys
