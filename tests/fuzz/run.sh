#!/bin/sh
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for SECONDS:
#   fatbin      the fatbin/ELF reader and ld.so.cache, on the fatbin fixtures;
#   notebook    the notebook reader, magic neutralisation and the project index, on the scan examples;
#   fleet       fleet's report stream reader, the join and the hostlist parser, on real check reports;
#   explain     the log signatures, every report reader of `explain` and every check, on the corpus
#               of real posts;
#   python_env  pyvenv.cfg, .pth, dist-info, conda-meta and framework build files, through
#               sys.path-from-files and the environment scan;
#   archive_proc  `check --root` archive extraction (with small limits), /proc/PID/stat and maps,
#               on real captures and /proc files;
#   scan        the whole Python scanner (parse, file facts, dataflow, every rule, the parts of a
#               very large file) and the [tool.gpudoctor] reader of pyproject.toml, on the rule
#               examples and the real-bug programs;
#   nvml        the NVML sampling helper's line protocol (what a vendor library's child may print);
#   machine     every file probe of `check` (/sys, /proc, /etc, /dev listings, ld.so.cache, a capture's
#               recorded driver answers) and every check, on this machine's own files.
# Usage: tests/fuzz/run.sh [SECONDS] [TARGET...] (default 60 s, every target). Needs clang++ with
# libFuzzer (Debian's clang 14 and libclang-rt-14-dev) and a build of gpudoctor (GPUDOCTOR, default
# build/gpudoctor; BUILD, its build directory, for the generated data tables). Exits non-zero when
# a target finds a crash, a leak or a timeout; the reproducer is left in $OUT. The random seed is fixed
# (FUZZ_SEED, default 1) so that a run is repeatable; set another to explore further.
set -eu
SECONDS_TO_RUN=${1:-60}
[ $# -gt 0 ] && shift
TARGETS=${*:-fatbin notebook fleet explain python_env archive_proc scan nvml machine}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FUZZ_OUT:-$SRC/build-fuzz}
BUILD=${BUILD:-$SRC/build}
GPUDOCTOR=${GPUDOCTOR:-$BUILD/gpudoctor}
CXX=${CXX:-clang++}
JOBS=$(nproc 2>/dev/null || echo 2)
FLAGS="-std=c++20 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -DFMT_HEADER_ONLY -DGPUDOCTOR_VERSION=\"fuzz\" -I$SRC/src -I$SRC/node_modules/tree-sitter-python/src"
mkdir -p "$OUT/obj"
# Objects are cached per source file; a changed header (a struct's layout) invalidates them all.
if [ ! -f "$OUT/obj/.headers" ] || [ -n "$(find "$SRC/src" -name '*.hpp' -newer "$OUT/obj/.headers" -print -quit)" ]; then
  rm -f "$OUT"/obj/*.o
  touch "$OUT/obj/.headers"
fi

# Compiles each source once into $OUT/obj (in parallel), prints the object files.
objects() {
  for f in "$@"; do
    case "$f" in *_test.cpp) continue ;; esac
    echo "$f"
  done | xargs -P "$JOBS" -I{} sh -c '
    o="$0/obj/$(echo "{}" | tr / _).o"
    if [ ! -f "$o" ] || [ "{}" -nt "$o" ]; then $1 $2 -c "{}" -o "$o"; fi' "$OUT" "$CXX" "$FLAGS"
  for f in "$@"; do
    case "$f" in *_test.cpp) continue ;; esac
    echo "$OUT/obj/$(echo "$f" | tr / _).o"
  done
}

link() {  # link NAME LIBS -- SOURCES...
  name=$1
  libs=$2
  shift 3
  objs=$(objects "$@")
  # shellcheck disable=SC2086
  "$CXX" -fsanitize=fuzzer,address,undefined $objs $libs -o "$OUT/$name"
}

# Runs one target; prints its summary, or the log's end and a failure line (status 1).
fuzz_one() {  # fuzz_one NAME CORPUS
  "$OUT/$1" -seed="${FUZZ_SEED:-1}" -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$OUT/$1-" "$2" 2>"$OUT/$1.log" || { tail -40 "$OUT/$1.log"; echo "fuzz: $1 failed; see $OUT/$1.log"; return 1; }
  grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs" "$OUT/$1.log" | tail -2
  grep -oE "cov: [0-9]+ ft: [0-9]+" "$OUT/$1.log" | tail -1 | sed "s/^/$1: /"
}

# Targets run in the background, at most JOBS at once (each fuzzer is single-threaded), while the
# next target compiles; reap waits for the oldest, prints what it printed and records a failure.
running=""
failed=""
reap() {
  first=${running%% *}
  running=${running#"$first"}
  running=${running# }
  pid=${first%%:*}
  name=${first#*:}
  wait "$pid" || failed="$failed $name"
  cat "$OUT/$name.summary"
}
fuzz() {  # fuzz NAME CORPUS
  [ "$(echo "$running" | wc -w)" -lt "$JOBS" ] || reap
  fuzz_one "$1" "$2" > "$OUT/$1.summary" 2>&1 &
  running="${running:+$running }$!:$1"
}

cd "$SRC"
for target in $TARGETS; do
  case $target in
  fatbin)
    mkdir -p "$OUT/fatbin-corpus"
    cp tests/fixtures/fatbin/*.so tests/fixtures/fatbin/*.o "$OUT/fatbin-corpus/"
    [ -r /etc/ld.so.cache ] && cp /etc/ld.so.cache "$OUT/fatbin-corpus/ld.so.cache"
    link fatbin_fuzzer "" -- tests/fuzz/fatbin_fuzzer.cpp src/probe/fatbin/fatbin_reader.cpp src/probe/elf/elf_file.cpp \
      src/probe/loader/elf_info.cpp src/probe/loader/ld_cache.cpp src/facts/fatbin_facts.cpp src/sys/memory_file_system.cpp \
      src/sys/rooted_file_system.cpp src/sys/error.cpp src/util/text.cpp
    fuzz fatbin_fuzzer "$OUT/fatbin-corpus" ;;
  scan)
    mkdir -p "$OUT/scan-corpus"
    cp tests/scan/*/*.py "$OUT/scan-corpus/"
    printf '[tool.gpudoctor]\nselect = ["code.inputs_not_moved"]\nignore = []\nexclude = ["*_test.py"]\nmax_file_mb = 32\ninclude_tests = true\n[tool.gpudoctor.severity]\n"code.sync_in_loop" = "error"\n' > "$OUT/scan-corpus/pyproject.toml"
    # Regressions toml++ 3.3 mishandles: a table header without a key (or `[[` alone); U+026C outside a
    # string; U+048B in a string after a bad value; a value wanted where `}` stands.
    printf '[&' > "$OUT/scan-corpus/toml-header"
    printf '[[\n' > "$OUT/scan-corpus/toml-header-eol"
    printf 'a = 1\n\311\254' > "$OUT/scan-corpus/toml-non-ascii"
    printf 'a =0["\322\213"]\n' > "$OUT/scan-corpus/toml-after-error"
    printf 'a = [}\n' > "$OUT/scan-corpus/toml-value-expected"
    # shellcheck disable=SC2046
    link scan_fuzzer "$BUILD/libtree_sitter_python.a -ltree-sitter -ltomlplusplus -lre2" -- tests/fuzz/scan_fuzzer.cpp \
      $(ls src/scan/*.cpp) src/facts/finding.cpp src/sys/error.cpp src/util/text.cpp src/util/path.cpp
    fuzz scan_fuzzer "$OUT/scan-corpus" ;;
  nvml)
    mkdir -p "$OUT/nvml-corpus"
    printf '{"ready": true, "driver_version": "550.54.14"}\n{"gpus": [{"index": 0, "busy_percent": 96, "memory_used_bytes": 32212254720, "memory_total_bytes": 85899345920, "power_watts": 250.0}], "processes": [{"pid": 4242, "memory_bytes": 32212254720, "sm_percent": 93.0}], "process_sm_unknown": ""}\n{"gpus": [], "processes_unknown": "Not Supported"}\n' > "$OUT/nvml-corpus/seed"
    # Numbers that fit no field (a CI run found 3.2e19 as memory_used_bytes cast to an unsigned long).
    printf '{"gpus": [{"index": 0, "memory_used_bytes": 3.22123e19, "power_watts": 1e300}], "processes": [{"pid": 7.5, "memory_bytes": -1}]}\n' > "$OUT/nvml-corpus/seed-range"
    link nvml_fuzzer "" -- tests/fuzz/nvml_fuzzer.cpp src/watch/nvml_protocol.cpp src/watch/timeline.cpp \
      src/facts/finding.cpp src/util/text.cpp
    fuzz nvml_fuzzer "$OUT/nvml-corpus" ;;
  notebook)
    mkdir -p "$OUT/notebook-corpus"
    cp tests/scan/*/*.ipynb tests/scan/inputs_not_moved/*.py "$OUT/notebook-corpus/"
    link notebook_fuzzer "" -- tests/fuzz/notebook_fuzzer.cpp src/scan/notebook.cpp src/scan/source.cpp \
      src/scan/project_index.cpp src/sys/error.cpp src/util/text.cpp
    fuzz notebook_fuzzer "$OUT/notebook-corpus" ;;
  fleet)
    mkdir -p "$OUT/fleet-corpus"
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
    link fleet_fuzzer "" -- tests/fuzz/fleet_fuzzer.cpp src/fleet/collect.cpp src/fleet/node_report.cpp src/fleet/join.cpp \
      src/fleet/hostlist.cpp src/facts/finding.cpp src/sys/rooted_file_system.cpp src/sys/error.cpp src/util/text.cpp \
      src/util/path.cpp
    fuzz fleet_fuzzer "$OUT/fleet-corpus" ;;
  explain)
    mkdir -p "$OUT/explain-corpus"
    cp tests/explain/corpus/*.txt "$OUT/explain-corpus/"
    # shellcheck disable=SC2046
    link explain_fuzzer "-lre2" -- tests/fuzz/explain_fuzzer.cpp src/cli/explain_likely.cpp src/watch/line_matcher.cpp src/watch/log_scanner.cpp \
      src/watch/signature.cpp $(ls src/probe/text/*.cpp src/checks/*.cpp src/facts/*.cpp src/data/*.cpp src/util/*.cpp) \
      src/sys/error.cpp "$BUILD/generated/embedded_data.cpp"
    fuzz explain_fuzzer "$OUT/explain-corpus" ;;
  python_env)
    mkdir -p "$OUT/python-env-corpus"
    printf 'home = /base/bin\ninclude-system-site-packages = false\n\n@@\n../src\nimport os\n\n@@\nMetadata-Version: 2.1\nName: torch\nVersion: 2.3.0+cu121\n\n@@\ntorch/__init__.py,,\n\n@@\n{"url": "https://download.pytorch.org/whl/cu121"}\n@@\n__version__ = "2.3.0+cu121"\ncuda = "12.1"\n\n@@\nbuild_info = {"cuda_version": "12.3"}\n\n@@\n__version__ = "0.4.30"\n\n@@\n{"name": "pytorch", "version": "2.3.0", "build": "py3.11_cuda12.1_0"}\n\n@@\npackage_name = "onnxruntime-gpu"\n' > "$OUT/python-env-corpus/seed"
    # shellcheck disable=SC2046
    link python_env_fuzzer "-lelf -larchive" -- tests/fuzz/python_env_fuzzer.cpp \
      $(ls src/probe/python_*.cpp src/probe/frameworks/*.cpp src/probe/loader/*.cpp src/probe/elf/*.cpp src/probe/fatbin/*.cpp \
        src/facts/*.cpp src/data/*.cpp src/util/*.cpp) \
      src/sys/memory_file_system.cpp src/sys/rooted_file_system.cpp src/sys/error.cpp src/sys/subprocess.cpp src/sys/archive.cpp \
      "$BUILD/generated/embedded_data.cpp"
    fuzz python_env_fuzzer "$OUT/python-env-corpus" ;;
  archive_proc)
    mkdir -p "$OUT/archive-proc-corpus"
    "$GPUDOCTOR" capture -o "$OUT/archive-proc-corpus/capture.tar.gz" >/dev/null 2>&1 || true
    cp /proc/self/stat "$OUT/archive-proc-corpus/stat" 2>/dev/null || true
    head -c 60000 /proc/self/maps > "$OUT/archive-proc-corpus/maps" 2>/dev/null || true
    link archive_proc_fuzzer "-larchive" -- tests/fuzz/archive_proc_fuzzer.cpp src/sys/archive.cpp src/watch/proc_parse.cpp src/watch/timeline.cpp src/facts/finding.cpp \
      src/sys/error.cpp src/util/text.cpp
    fuzz archive_proc_fuzzer "$OUT/archive-proc-corpus" ;;
  machine)
    # Seeds: this machine's own files, as `capture` records them, one "@@ PATH" record each.
    mkdir -p "$OUT/machine-corpus" "$OUT/machine-capture"
    if "$GPUDOCTOR" capture -o "$OUT/machine-capture.tar.gz" >/dev/null 2>&1 &&
      tar -xzf "$OUT/machine-capture.tar.gz" -C "$OUT/machine-capture" 2>/dev/null; then
      (cd "$OUT/machine-capture" && find . -type f -size -32k | sort | while read -r f; do
        printf '@@ %s\n' "${f#.}"; cat "$f"; printf '\n'; done) | head -c 60000 > "$OUT/machine-corpus/capture"
    fi
    printf '@@ /sys/bus/pci/devices/0000:01:00.0/vendor\n0x10de\n@@ /sys/bus/pci/devices/0000:01:00.0/device\n0x2330\n@@ /sys/bus/pci/devices/0000:01:00.0/class\n0x030200\n@@ /proc/modules\nnvidia_uvm 1531904 0 - Live 0x0000000000000000 (POE)\nnvidia 60481536 1 nvidia_uvm, Live 0x0000000000000000 (POE)\n@@ /proc/driver/nvidia/version\nNVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n@@ /.gpudoctor/driver.json\n{"nvml": {"driver_version": "550.54.14", "device_count": 1e30}}\n' > "$OUT/machine-corpus/seed"
    # shellcheck disable=SC2046
    link machine_fuzzer "-lelf -larchive -ldl" -- tests/fuzz/machine_fuzzer.cpp $(ls src/probe/*_probe.cpp src/probe/pci_names.cpp \
      src/probe/loader/*.cpp src/probe/elf/*.cpp src/probe/driver/*.cpp src/checks/*.cpp src/facts/*.cpp src/data/*.cpp \
      src/util/*.cpp src/sys/*.cpp src/watch/timeline.cpp | grep -v python_probe) "$BUILD/generated/embedded_data.cpp"
    fuzz machine_fuzzer "$OUT/machine-corpus" ;;
  *) echo "fuzz: unknown target $target" >&2; exit 2 ;;
  esac
done
while [ -n "$running" ]; do reap; done
if [ -n "$failed" ]; then
  echo "fuzz: failed:$failed"
  exit 1
fi
