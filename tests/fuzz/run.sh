#!/bin/sh
# Builds the libFuzzer target with clang and runs it on the fatbin fixtures as a seed corpus.
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
