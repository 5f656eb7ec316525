#!/usr/bin/env bash
# Cost of the driver probe: the child process alone, and what the probe adds to `gpudoctor check`.
# Compares with `nvidia-smi -q` where a GPU is present. Medians of N runs (default 30).
#
#   bench/driver_probe.sh BUILD_DIR [N]
#
# BUILD_DIR holds gpudoctor and tests/doubles/ (the NVML/libcuda test doubles): without a GPU they
# stand in for the driver, so the figures are gpudoctor's own overhead, not the driver's.
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [N]}
n=${2:-30}
bin=$build/gpudoctor
doubles=$build/tests/doubles
here=$(cd "$(dirname "$0")/.." && pwd)
export GPUDOCTOR_FAKE_SCENARIO=$here/tests/driver/healthy.scenario

median_ms() {  # median wall time of a command line, in ms
  python3 - "$n" "$@" <<'PY'
import os, resource, subprocess, sys, time, statistics
n = int(sys.argv[1]); cmd = sys.argv[2:]
samples, cpu = [], []
for _ in range(n):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples.append((time.perf_counter() - t) * 1000)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
# CPU time (user+sys of the command and its children) is steadier than wall time on a busy machine.
print(f"{statistics.median(samples):8.2f} ms wall (min {min(samples):.2f}), {statistics.median(cpu):7.2f} ms cpu, n={n}")
PY
}

printf '%-58s %s\n' "child: __probe-driver nvml (test double, 1 GPU)" "$(median_ms "$bin" __probe-driver nvml "$doubles/libnvidia-ml.so.1")"
printf '%-58s %s\n' "child: __probe-driver cuda (test double, 1 GPU)" "$(median_ms "$bin" __probe-driver cuda "$doubles/libcuda.so.1")"
printf '%-58s %s\n' "child: __probe-driver nvml (library absent: exec + dlopen)" "$(median_ms "$bin" __probe-driver nvml /nonexistent/libnvidia-ml.so.1)"
printf '%-58s %s\n' "gpudoctor --version (exec baseline)" "$(median_ms "$bin" --version)"
printf '%-58s %s\n' "check, driver probe off (all libraries none)" "$(GPUDOCTOR_NVML_LIBRARY=none GPUDOCTOR_CUDA_LIBRARY=none GPUDOCTOR_CUDART_LIBRARY=none median_ms "$bin" check --json)"
printf '%-58s %s\n' "check, driver probe on the doubles (nvml+cuda+cudart)" "$(GPUDOCTOR_NVML_LIBRARY=$doubles/libnvidia-ml.so.1 GPUDOCTOR_CUDA_LIBRARY=$doubles/libcuda.so.1 GPUDOCTOR_CUDART_LIBRARY=$doubles/libcudart.so.12 median_ms "$bin" check --json)"
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  printf '%-58s %s\n' "nvidia-smi -q" "$(median_ms nvidia-smi -q)"
  printf '%-58s %s\n' "child: __probe-driver nvml (real NVML)" "$(median_ms "$bin" __probe-driver nvml libnvidia-ml.so.1)"
  printf '%-58s %s\n' "child: __probe-driver cuda (real libcuda)" "$(median_ms "$bin" __probe-driver cuda libcuda.so.1)"
else
  echo "nvidia-smi -q: skipped (no NVIDIA GPU or nvidia-smi here)"
fi
