#!/bin/sh
# Builds the libFuzzer targets with clang and runs each: the fatbin/ELF reader on the fatbin fixtures,
# the notebook reader (with magic neutralisation and the project index) on the scan examples, and
# the fleet's report stream reader, join and hostlist parser on real check reports.
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
mkdir -p "$OUT/fleet-corpus"
GPUDOCTOR=${GPUDOCTOR:-$SRC/build/gpudoctor}
python3 - "$SRC/tests/machines" "$OUT/fleet-trees" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import trees as T, replay as R
for fn in (R.healthy_nvidia_server, R.uvm_not_loaded):
    t = T.Tree(f"{sys.argv[2]}/{fn.__name__}"); fn(t); t.finish()
PY
for root in "$OUT"/fleet-trees/*; do
  "$GPUDOCTOR" check --root "$root" --json > "$OUT/fleet-corpus/$(basename "$root").json" || true
done
printf 'gpu[001-004,007],login1' > "$OUT/fleet-corpus/hostlist"
"$CXX" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DFMT_HEADER_ONLY -I"$SRC/src" \
  "$SRC/tests/fuzz/fleet_fuzzer.cpp" "$SRC/src/fleet/collect.cpp" "$SRC/src/fleet/node_report.cpp" "$SRC/src/fleet/join.cpp" \
  "$SRC/src/fleet/hostlist.cpp" "$SRC/src/facts/finding.cpp" "$SRC/src/sys/rooted_file_system.cpp" \
  "$SRC/src/sys/error.cpp" "$SRC/src/util/text.cpp" "$SRC/src/util/path.cpp" -o "$OUT/fleet_fuzzer"
"$OUT/fleet_fuzzer" -max_total_time="$SECONDS_TO_RUN" -max_len=65536 "$OUT/fleet-corpus"
