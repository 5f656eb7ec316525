#!/usr/bin/env bash
# Median wall time of RUNS runs (default 10) of `gpudoctor kernels FILE` (headers only) and, as the
# peer, `cuobjdump --list-elf FILE` where the toolkit ships cuobjdump; plus `gpudoctor libs FILE`
# beside `ld.so --list FILE`. Warm page cache (one untimed run of each first).
#
#   bench/kernels.sh [GPUDOCTOR] [FILE] [RUNS]
set -euo pipefail
gpudoctor=${1:-build/gpudoctor}
file=${2:-/usr/local/cuda/lib64/libcublasLt.so.13}
runs=${3:-10}
cuda=${CUDA_HOME:-/usr/local/cuda}
ld_so=/lib64/ld-linux-x86-64.so.2

median_ms() {  # median_ms CMD... : median wall time in ms over $runs runs, after one warm-up run
  python3 - "$runs" "$@" <<'PY'
import statistics, subprocess, sys, time
n = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
samples = []
for _ in range(n):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples.append((time.perf_counter() - t) * 1000)
print(f"{statistics.median(samples):.1f}")
PY
}

[[ -r $file ]] || { echo "no such file: $file" >&2; exit 2; }
echo "file: $file ($(stat -c %s "$file") bytes), median of $runs runs, warm page cache"
"$gpudoctor" kernels "$file" | head -3
ours=$(median_ms "$gpudoctor" kernels "$file")
echo "gpudoctor kernels:        $ours ms"
if [[ -x $cuda/bin/cuobjdump ]]; then
  peer=$(median_ms "$cuda/bin/cuobjdump" --list-elf "$file")
  echo "cuobjdump --list-elf:     $peer ms"
  python3 -c "print(f'ratio cuobjdump/gpudoctor: {float($peer)/float($ours):.1f}x')"
else
  echo "cuobjdump --list-elf:     not measured ($cuda/bin/cuobjdump is not installed)"
fi
libs=$(median_ms "$gpudoctor" libs "$file")
echo "gpudoctor libs:           $libs ms"
if [[ -x $ld_so ]]; then
  peer=$(median_ms "$ld_so" --list "$file")
  echo "ld.so --list:             $peer ms"
  python3 -c "print(f'ratio ld.so/gpudoctor libs: {float($peer)/float($libs):.1f}x')"
fi
