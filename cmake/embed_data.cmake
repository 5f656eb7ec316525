# Compiles the knowledge tables in data/ into the binary: each file becomes a std::string_view
# reachable through gpudoctor::data::find("relative/path.tsv"). The tables are parsed at run time by
# src/data_tables (cheap: they are a few hundred rows).
function(gpudoctor_embed_data)
  cmake_parse_arguments(ARG "" "OUTPUT" "FILES" ${ARGN})
  set(script ${PROJECT_BINARY_DIR}/generated/embed_data_run.cmake)
  file(WRITE ${script} [=[
set(out "// Generated from data/ by cmake/embed_data.cmake. Do not edit.\n#include <data/embedded.hpp>\nnamespace gpudoctor::data {\nnamespace {\nconstexpr EmbeddedFile k_files[] = {\n")
foreach(f IN LISTS FILES)
  file(RELATIVE_PATH rel ${DATA_DIR} ${f})
  file(READ ${f} content HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" content "${content}")
  string(APPEND out "  {\"${rel}\", std::string_view(\"${content}\", sizeof(\"${content}\") - 1)},\n")
endforeach()
string(APPEND out "};\n}  // namespace\nstd::span<const EmbeddedFile> embedded_files() { return k_files; }\n}  // namespace gpudoctor::data\n")
file(WRITE ${OUTPUT}.tmp "${out}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
]=])
  string(REPLACE ";" "\\;" files_arg "${ARG_FILES}")
  add_custom_command(OUTPUT ${ARG_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${ARG_OUTPUT} -DDATA_DIR=${PROJECT_SOURCE_DIR}/data
            "-DFILES=${files_arg}" -P ${script}
    DEPENDS ${ARG_FILES} ${script}
    COMMENT "Embedding data/ tables")
endfunction()
