/* For the portable binary (cmake/portable.cmake) only: arc4random and arc4random_buf came with
 * glibc 2.36, and the static libstdc++ (std::random_device) and libarchive built on Debian 12 call
 * them. Defined here over getrandom(2) (glibc 2.25), the binary keeps running on the older glibc
 * of the GPU machines it is for; the linker binds those calls to these definitions, so glibc's are
 * never asked for. Like glibc's, they never fail: an interrupted getrandom is retried. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/random.h>

void arc4random_buf(void* buffer, size_t size) {
  unsigned char* p = buffer;
  while (size > 0) {
    ssize_t n = getrandom(p, size, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      n = getrandom(p, size, GRND_NONBLOCK);  // never fails on a kernel with getrandom (3.17+)
      if (n < 0) continue;
    }
    p += n;
    size -= (size_t)n;
  }
}

uint32_t arc4random(void) {
  uint32_t value;
  arc4random_buf(&value, sizeof value);
  return value;
}

/* _dl_find_object came with glibc 2.35; the static libgcc_eh of GCC 12 asks it for the unwind
 * tables (PT_GNU_EH_FRAME) of the object holding a program counter, on every C++ exception. This
 * definition answers from dl_iterate_phdr, the way GCC's unwinder found them before it used
 * _dl_find_object. Only dlfo_eh_frame is read by the unwinder on x86-64. */
#include <dlfcn.h>
#include <link.h>
#include <string.h>

struct find_object_search {
  uintptr_t pc;
  struct dl_find_object* result;
  int found;
};

static int find_object_visit(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  struct find_object_search* search = data;
  uintptr_t low = UINTPTR_MAX, high = 0;
  const ElfW(Phdr)* eh_frame = NULL;
  int contains = 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)* phdr = &info->dlpi_phdr[i];
    if (phdr->p_type == PT_LOAD) {
      uintptr_t start = info->dlpi_addr + phdr->p_vaddr;
      uintptr_t end = start + phdr->p_memsz;
      if (start < low) low = start;
      if (end > high) high = end;
      if (search->pc >= start && search->pc < end) contains = 1;
    } else if (phdr->p_type == PT_GNU_EH_FRAME) {
      eh_frame = phdr;
    }
  }
  if (!contains) return 0;
  memset(search->result, 0, sizeof *search->result);
  search->result->dlfo_map_start = (void*)low;
  search->result->dlfo_map_end = (void*)high;
  search->result->dlfo_eh_frame = eh_frame ? (void*)(info->dlpi_addr + eh_frame->p_vaddr) : NULL;
  search->found = 1;
  return 1;
}

int _dl_find_object(void* pc, struct dl_find_object* result) {
  struct find_object_search search = {(uintptr_t)pc, result, 0};
  dl_iterate_phdr(find_object_visit, &search);
  return search.found ? 0 : -1;
}
