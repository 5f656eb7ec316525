#!/usr/bin/env bash
# Median wall time of 10 runs each of `gpudoctor check`, `gpudoctor check --deep` and
# `python3 -m torch.utils.collect_env` (PyTorch's own environment report), with the ratios.
#
#   bench/check.sh [GPUDOCTOR] [RUNS]
#
# PATH is narrowed to the system directories so that the measured machine has one Python
# environment holding torch (Debian's python3-torch for /usr/bin/python3), as the target is stated
# for; set BENCH_KEEP_PATH=1 to measure with the caller's PATH instead.
set -euo pipefail
gpudoctor=$(realpath "${1:-build/gpudoctor}")
runs=${2:-10}
python=${BENCH_PYTHON:-/usr/bin/python3}
[[ ${BENCH_KEEP_PATH:-0} == 1 ]] || export PATH=/usr/local/bin:/usr/bin:/bin
unset VIRTUAL_ENV CONDA_PREFIX PYTHONPATH || true
cd "$(mktemp -d)"  # a neutral working directory: nothing here shadows a package

median_ms() {  # median_ms CMD... : wall time in ms of `runs` runs, median
  local times=()
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.1f\n", m / 1000}'
}

"$gpudoctor" check >/dev/null 2>&1 || true  # warm the page cache
check=$(median_ms "$gpudoctor" check)
deep=$(median_ms "$gpudoctor" check --deep)
if "$python" -c 'import torch.utils.collect_env' 2>/dev/null; then
  collect=$(median_ms "$python" -m torch.utils.collect_env)
else
  collect=""
fi
echo "runs: $runs, cores: $(nproc), PATH=$PATH"
echo "gpudoctor check          median ${check} ms"
echo "gpudoctor check --deep   median ${deep} ms"
if [[ -n $collect ]]; then
  echo "collect_env              median ${collect} ms"
  awk -v c="$check" -v d="$deep" -v e="$collect" 'BEGIN {
    printf "collect_env / check        %.1fx\n", e / c
    printf "collect_env / check --deep %.2fx\n", e / d }'
else
  echo "collect_env: torch is not importable by $python (skipped)"
fi
