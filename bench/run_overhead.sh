#!/usr/bin/env bash
# What watching costs the watched job: a CPU-bound child alone vs under `gpudoctor run`, runs
# interleaved, medians compared. Reports
#   - the child's own wall time and CPU time (it times its loop itself), alone and watched, and their
#     ratios, also per interleaved pair (machine drift between pairs cancels);
#   - the whole command's wall time, alone and watched (watched includes gpudoctor's start-up and its
#     end-of-run checks of the machine, which the child does not wait for);
#   - gpudoctor's own CPU time while observing (observer_cpu_seconds in --json, which includes the
#     NVML sampling helper), as % of one core.
# NVML is sampled as in any run: where there is no driver, point GPUDOCTOR_NVML_LIBRARY at the test
# double (build/tests/doubles/libnvidia-ml.so.1, with GPUDOCTOR_FAKE_SCENARIO=tests/driver/healthy.scenario)
# to include the helper's cost.
# Usage: bench/run_overhead.sh [GPUDOCTOR] [RUNS] [SECONDS]   (default build/gpudoctor 5 10)
set -euo pipefail
gpd=${1:-build/gpudoctor}
runs=${2:-5}
secs=${3:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Calibrate a pure-Python loop to about $secs seconds on this machine, then run that fixed amount.
iters=$(python3 - "$secs" <<'PY'
import sys, time
n, t0 = 2_000_000, time.perf_counter()
x = 0
for i in range(n): x += i * i
print(int(n * float(sys.argv[1]) / (time.perf_counter() - t0)))
PY
)
cat > "$work/child.py" <<PY
import time
t0, c0 = time.perf_counter(), time.process_time()
x = 0
for i in range($iters): x += i * i
print(f"{time.perf_counter() - t0:.6f} {time.process_time() - c0:.6f}")
PY

python3 - "$gpd" "$runs" "$work" <<'PY'
import json, statistics, subprocess, sys, time
gpd, runs, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
child = ["python3", f"{work}/child.py"]
alone_child, alone_cmd, watched_child, watched_cmd, observer, duration = [], [], [], [], [], []
alone_cpu, watched_cpu = [], []
for i in range(runs):
    t0 = time.perf_counter()
    out = subprocess.run(child, stdout=subprocess.PIPE, check=True).stdout
    alone_cmd.append(time.perf_counter() - t0)
    alone_child.append(float(out.split()[0]))
    alone_cpu.append(float(out.split()[1]))
    report = f"{work}/run{i}.json"
    t0 = time.perf_counter()
    r = subprocess.run([gpd, "run", "--json", report, "--", *child], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, check=True)
    watched_cmd.append(time.perf_counter() - t0)
    watched_child.append(float(r.stdout.split()[0]))
    watched_cpu.append(float(r.stdout.split()[1]))
    tl = json.load(open(report))["timeline"]
    observer.append(tl["observer_cpu_seconds"])
    duration.append(tl["duration_s"])
m = statistics.median
print(f"runs: {runs} of each, interleaved; child loop ~{m(alone_child):.2f} s")
print(f"child's own wall time   alone {m(alone_child):.3f} s  watched {m(watched_child):.3f} s  "
      f"ratio {m(watched_child) / m(alone_child):.4f}")
pairs = sorted(w / a for w, a in zip(watched_child, alone_child))
print(f"child's wall time, watched/alone per interleaved pair: median {m(pairs):.4f} "
      f"(min {pairs[0]:.4f}, max {pairs[-1]:.4f}): drift of the machine between pairs cancels")
print(f"child's own CPU time    alone {m(alone_cpu):.3f} s  watched {m(watched_cpu):.3f} s  "
      f"ratio {m(watched_cpu) / m(alone_cpu):.4f}")
print(f"whole command wall time alone {m(alone_cmd):.3f} s  watched {m(watched_cmd):.3f} s  "
      f"ratio {m(watched_cmd) / m(alone_cmd):.4f}  (watched includes the end-of-run machine checks)")
share = [100 * o / d for o, d in zip(observer, duration)]
print(f"gpudoctor CPU while observing: median {m(observer) * 1000:.1f} ms over {m(duration):.2f} s "
      f"= {m(share):.3f} % of one core (max {max(share):.3f} %)")
PY
