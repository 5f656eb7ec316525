# The portable binary: every library linked statically except glibc (dlopen needs a dynamic glibc,
# and libnvidia-ml / libcuda are dlopened), so it runs on a GPU machine that has none of the Debian
# libraries gpudoctor is built with. It is what the wheel and `scripts/release` ship.
#
# It is made from the same objects as build/gpudoctor (libgpudoctor_core.a): only the link differs,
# so a build that has gpudoctor gets the portable one for the price of one link.
#
# gpudoctor_link_portable(TARGET) links TARGET (an executable of src/cli/main.cpp) that way.

# The static archives behind each dependency, in link order: libarchive needs the compression and
# ACL libraries it was built with (pkg-config --static --libs libarchive), libelf needs zlib and zstd.
set(gpudoctor_static_archives
  libre2.a libtree-sitter.a libelf.a libarchive.a libacl.a libnettle.a liblzma.a libzstd.a liblz4.a
  libbz2.a libz.a)

function(gpudoctor_link_portable target)
  set(archives)
  foreach(name IN LISTS gpudoctor_static_archives)
    string(MAKE_C_IDENTIFIER "GPUDOCTOR_STATIC_${name}" var)
    find_library(${var} NAMES ${name})
    if(NOT ${var})
      message(FATAL_ERROR "${name} not found: the portable binary needs the static libraries of "
                          "scripts/packages.txt (run scripts/setup)")
    endif()
    list(APPEND archives ${${var}})
  endforeach()
  # fmt: Debian ships only libfmt.so, so the few functions our objects call are compiled in here.
  # libxml2: see packaging/xar_writer_stubs.c; glibc 2.35/2.36 symbols: packaging/glibc_compat.c.
  target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/packaging/fmt_symbols.cpp
                 ${PROJECT_SOURCE_DIR}/packaging/xar_writer_stubs.c ${PROJECT_SOURCE_DIR}/packaging/glibc_compat.c)
  target_link_libraries(${target} PRIVATE fmt::fmt-header-only)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${target} PRIVATE $<TARGET_FILE:gpudoctor_core> $<TARGET_FILE:tree_sitter_python>
    ${archives} Threads::Threads ${CMAKE_DL_LIBS})
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  add_dependencies(${target} gpudoctor_core tree_sitter_python)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
    $<TARGET_FILE:gpudoctor_core> $<TARGET_FILE:tree_sitter_python>)
endfunction()
