#!/usr/bin/env bash
# What `import gpudoctor` costs: median wall time of RUNS runs each of `python3 -c pass` and
# `python3 -c "import gpudoctor"` (the package from python/ of this tree, or the one installed when
# BENCH_INSTALLED=1), the difference being the import; and the same for a first API call
# (`gpudoctor.explain(...)`, which loads the API and runs the binary once).
#
#   bench/python_import.sh [PYTHON] [RUNS] [GPUDOCTOR]
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-/usr/bin/python3}
runs=${2:-21}
export GPUDOCTOR_BINARY=${3:-$(pwd)/build/portable/gpudoctor}
[[ ${BENCH_INSTALLED:-0} == 1 ]] || export PYTHONPATH=$(pwd)/python
export PYTHONDONTWRITEBYTECODE=1
"$python" -c 'import gpudoctor' # compile nothing, warm the page cache

median_us() {  # median_us CMD... : wall time in microseconds of `runs` runs, median
  local times=() t0 t1 i
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2] + a[NR/2+1]) / 2)}'
}

base=$(median_us "$python" -c pass)
imp=$(median_us "$python" -c 'import gpudoctor')
call=$(median_us "$python" -c 'import gpudoctor; gpudoctor.explain("RuntimeError: CUDA error: out of memory")')
echo "runs: $runs, cores: $(nproc), $("$python" --version)"
awk -v b="$base" -v i="$imp" -v c="$call" 'BEGIN {
  printf "python3 -c pass                      median %6.1f ms\n", b / 1000
  printf "python3 -c \"import gpudoctor\"        median %6.1f ms  (import: +%.1f ms)\n", i / 1000, (i - b) / 1000
  printf "import + gpudoctor.explain(...)      median %6.1f ms  (first call: +%.1f ms)\n", c / 1000, (c - i) / 1000 }'
