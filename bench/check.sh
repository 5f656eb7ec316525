#!/usr/bin/env bash
# Medians of `gpudoctor check` in several configurations and of `python3 -m torch.utils.collect_env`
# (PyTorch's own environment report), with wall and CPU time (user + system) and the ratios:
#   - check with the PATH the caller has (every Python on it) and with PATH narrowed to the system
#     directories (one Python environment holding torch: Debian's python3-torch);
#   - check with no Python found at all, and with the driver probes off;
#   - check --deep, and `gpudoctor --version` (the binary's start-up alone).
#
#   bench/check.sh [GPUDOCTOR] [RUNS]
set -euo pipefail
gpudoctor=$(realpath "${1:-build/gpudoctor}")
runs=${2:-10}
python=${BENCH_PYTHON:-/usr/bin/python3}
caller_path=$PATH
system_path=/usr/local/bin:/usr/bin:/bin
unset VIRTUAL_ENV CONDA_PREFIX PYTHONPATH || true
cd "$(mktemp -d)"  # a neutral working directory: nothing here shadows a package

# measure LABEL CMD...: prints "LABEL  wall W ms  cpu C ms": hyperfine's median wall time of `runs`
# runs, and its mean user + system time.
measure() {
  local label=$1
  shift
  local json
  json=$(mktemp)
  local cmd=""
  for a in "$@"; do cmd+=" $(printf '%q' "$a")"; done
  hyperfine -N -i -w 2 -r "$runs" --export-json "$json" "${cmd# }" >/dev/null 2>&1
  read -r w c < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f %.1f" % (r["median"]*1000, (r["user"]+r["system"])*1000))' "$json")
  rm -f "$json"
  printf '%-48s wall %8s ms   cpu %8s ms\n' "$label" "$w" "$c"
  last_wall=$w
}

"$gpudoctor" check >/dev/null 2>&1 || true  # warm the page cache
echo "runs: $runs (hyperfine), cores: $(nproc)"
measure "gpudoctor --version" "$gpudoctor" --version
measure "check, every Python on the caller's PATH" env PATH="$caller_path" "$gpudoctor" check
measure "check, PATH=$system_path" env PATH="$system_path" "$gpudoctor" check
check_ms=$last_wall
measure "check, no Python on PATH" env PATH=/nonexistent "$gpudoctor" check
measure "check, driver probes off" env PATH="$system_path" GPUDOCTOR_NVML_LIBRARY=none GPUDOCTOR_CUDA_LIBRARY=none \
  GPUDOCTOR_CUDART_LIBRARY=none "$gpudoctor" check
measure "check --deep, PATH=$system_path" env PATH="$system_path" "$gpudoctor" check --deep
deep_ms=$last_wall
if PATH=$system_path "$python" -c 'import torch.utils.collect_env' 2>/dev/null; then
  measure "python3 -m torch.utils.collect_env" env PATH="$system_path" "$python" -m torch.utils.collect_env
  awk -v c="$check_ms" -v d="$deep_ms" -v e="$last_wall" 'BEGIN {
    printf "collect_env / check        %.1fx\n", e / c
    printf "collect_env / check --deep %.2fx\n", e / d }'
else
  echo "collect_env: torch is not importable by $python (skipped)"
fi
