#!/usr/bin/env bash
# What reading libtorch_cuda.so's fatbin costs `gpudoctor check`: median wall time of RUNS runs (default
# 10) of `gpudoctor check` on one Python environment holding a CUDA torch whose lib/libtorch_cuda.so is
#   (a) a big real CUDA library (default the toolkit's libcublasLt.so.13, ~540 MB, 5,737 fatbin
#       entries: a stand-in for a real libtorch_cuda.so, which this machine does not have), and
#   (b) a 4-byte placeholder that the fatbin reader rejects at once (the table fallback),
# and the difference. The environment is a venv of /usr/bin/python3 in a temporary directory, activated
# and first on PATH (its python3 and python come before the system's), so discovery finds exactly one
# interpreter. Warm page cache (one untimed run first).
#
#   bench/torch_kernels.sh [GPUDOCTOR] [LIBRARY] [RUNS]
set -euo pipefail
gpudoctor=$(realpath "${1:-build/gpudoctor}")
library=$(realpath "${2:-/usr/local/cuda/lib64/libcublasLt.so.13}")
runs=${3:-10}
[[ -r $library ]] || { echo "no such file: $library" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 -m venv --without-pip "$work/venv"
site=$(echo "$work"/venv/lib/python3.*/site-packages)
mkdir -p "$site/torch/lib"
echo "# torch" >"$site/torch/__init__.py"
printf "__version__ = '2.5.1+cu121'\ncuda = '12.1'\nhip = None\n" >"$site/torch/version.py"

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

export VIRTUAL_ENV="$work/venv" PATH="$work/venv/bin:/usr/bin:/bin"
unset CONDA_PREFIX PYTHONPATH || true
cd "$work"

ln -sf "$library" "$site/torch/lib/libtorch_cuda.so"
with_fatbin=$(median_ms "$gpudoctor" check)
"$gpudoctor" facts --json | python3 -c '
import json, sys
doc = json.load(sys.stdin)
for e in doc["framework"]["environments"]:
    for b in e["builds"]:
        k = b["kernel_images"]
        if isinstance(k, list):
            for s in k:
                print("read:", s["path"], s["containers"], "containers,", len(s["entries"]), "distinct entries")
        else:
            print("not read:", k["unknown"])
print("environments:", len(doc["framework"]["environments"]))'

rm "$site/torch/lib/libtorch_cuda.so"
printf '\177ELF' >"$site/torch/lib/libtorch_cuda.so"
placeholder=$(median_ms "$gpudoctor" check)

echo "runs: $runs, cores: $(nproc), library: $library ($(stat -L -c %s "$library") bytes)"
echo "gpudoctor check, libtorch_cuda.so = the library     median ${with_fatbin} ms"
echo "gpudoctor check, libtorch_cuda.so = a placeholder   median ${placeholder} ms"
python3 -c "print(f'cost of the fatbin read                          {float(\"$with_fatbin\") - float(\"$placeholder\"):.1f} ms')"
