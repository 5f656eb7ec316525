# Runs the built gpudoctor to write its man page and completions (packaging/deb.cmake), and the
# changelog lintian asks for (changelog.gz: gpudoctor is a native package). Arguments: GPUDOCTOR,
# OUT, VERSION, SOURCE_DIR.
file(MAKE_DIRECTORY ${OUT})
# In a sanitizer build the binary is instrumented; its leak report at exit is not a docs failure.
set(ENV{ASAN_OPTIONS} "detect_leaks=0")
function(run_to file)
  execute_process(COMMAND ${GPUDOCTOR} docs ${ARGN} OUTPUT_FILE ${OUT}/${file} RESULT_VARIABLE rc TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gpudoctor docs ${ARGN} failed: ${rc}")
  endif()
endfunction()
run_to(gpudoctor.1 man)
run_to(gpudoctor.bash completions bash)
run_to(_gpudoctor completions zsh)
run_to(gpudoctor.fish completions fish)
# A fixed date keeps the package reproducible; the version is the project's.
file(WRITE ${OUT}/changelog "gpudoctor (${VERSION}) unstable; urgency=medium\n\n"
     "  * Release ${VERSION}.\n\n -- gpudoctor developers <gpudoctor@example.org>  Thu, 01 Jan 2026 00:00:00 +0000\n")
foreach(file gpudoctor.1 changelog)
  execute_process(COMMAND gzip -9nf ${OUT}/${file} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${file} failed")
  endif()
endforeach()
