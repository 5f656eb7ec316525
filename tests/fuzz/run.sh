#!/bin/sh
# Builds the libFuzzer targets with clang and runs each: the fatbin/ELF reader on the fatbin fixtures,
# and the notebook reader (with magic neutralisation and the project index) on the scan examples.
# Usage: tests/fuzz/run.sh [SECONDS] (default 60). Needs clang++ with libFuzzer (clang 14 has it).
set -eu
SECONDS_TO_RUN=${1:-60}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FUZZ_OUT:-$SRC/build-fuzz}
CXX=${CXX:-clang++}
mkdir -p "$OUT/corpus"
cp "$SRC"/tests/fixtures/fatbin/*.so "$SRC"/tests/fixtures/fatbin/*.o "$OUT/corpus/"
[ -r /etc/ld.so.cache ] && cp /etc/ld.so.cache "$OUT/corpus/ld.so.cache"
"$CXX" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I"$SRC/src" \
  "$SRC/tests/fuzz/fatbin_fuzzer.cpp" "$SRC/src/probe/fatbin/fatbin_reader.cpp" "$SRC/src/probe/elf/elf_file.cpp" \
  "$SRC/src/probe/loader/elf_info.cpp" "$SRC/src/probe/loader/ld_cache.cpp" "$SRC/src/facts/fatbin_facts.cpp" \
  "$SRC/src/sys/memory_file_system.cpp" "$SRC/src/sys/rooted_file_system.cpp" "$SRC/src/sys/error.cpp" \
  "$SRC/src/util/text.cpp" -o "$OUT/fatbin_fuzzer"
"$OUT/fatbin_fuzzer" -max_total_time="$SECONDS_TO_RUN" -max_len=65536 "$OUT/corpus"
mkdir -p "$OUT/notebook-corpus"
cp "$SRC"/tests/scan/*/*.ipynb "$SRC"/tests/scan/inputs_not_moved/*.py "$OUT/notebook-corpus/"
"$CXX" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DFMT_HEADER_ONLY -I"$SRC/src" \
  "$SRC/tests/fuzz/notebook_fuzzer.cpp" "$SRC/src/scan/notebook.cpp" "$SRC/src/scan/source.cpp" \
  "$SRC/src/scan/project_index.cpp" "$SRC/src/sys/error.cpp" "$SRC/src/util/text.cpp" -o "$OUT/notebook_fuzzer"
"$OUT/notebook_fuzzer" -max_total_time="$SECONDS_TO_RUN" -max_len=65536 "$OUT/notebook-corpus"
