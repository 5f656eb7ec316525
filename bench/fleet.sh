#!/usr/bin/env bash
# `gpudoctor fleet` joining N generated node reports (default 10,000): median wall time of RUNS runs
# and the peak memory (from files, and as one stream on standard input), beside jq reading the same files for their host and finding ids (a peer that
# parses every report and joins nothing) in the same run.
#
#   bench/fleet.sh [GPUDOCTOR] [NODES] [RUNS]
#
# The reports are real `gpudoctor check --json` output of this machine (with its Python
# environments, about 40 KB each) and of three replayed machine trees, varied per node: host name,
# driver version on a few nodes, findings on some. Target: 10,000 reports joined in 2 s or less.
set -euo pipefail
gpudoctor=$(realpath "${1:-build/gpudoctor}")
nodes=${2:-10000}
runs=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$gpudoctor" "$work" "$nodes" "$here/../tests/machines" <<'PY'
import json, os, subprocess, sys
gpd, work, n, machines = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, machines)
import trees as T, replay as R
templates = []
live = subprocess.run([gpd, "check", "--json", "--python", "/usr/bin/python3"], stdout=subprocess.PIPE).stdout
templates.append(json.loads(live))
for name, fn in (("ok", R.healthy_nvidia_server), ("mismatch", R.driver_upgraded_without_reboot), ("uvm", R.uvm_not_loaded)):
    t = T.Tree(os.path.join(work, "trees", name)); fn(t); t.finish()
    templates.append(json.loads(subprocess.run([gpd, "check", "--json", "--root", t.root], stdout=subprocess.PIPE).stdout))
os.makedirs(os.path.join(work, "reports"))
for i in range(n):
    # Mostly the live report (the largest); every 50th node broken, every 400th on another driver.
    j = templates[0] if i % 50 else templates[1 + (i // 50) % 3]
    j = dict(j, host=f"gpu{i:05d}")
    text = json.dumps(j, indent=2)
    if i % 400 == 7:
        text = text.replace('"nvidia_version": "550.54.14"', '"nvidia_version": "535.104.05"')
    with open(os.path.join(work, "reports", f"gpu{i:05d}.json"), "w") as f:
        f.write(text)
PY
bytes=$(du -sb "$work/reports" | cut -f1)

median() { sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.3f\n", m}'; }
time_runs() {  # time_runs CMD...: one wall time in seconds per run
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo "$(((t1 - t0) / 1000000))" | awk '{printf "%.3f\n", $1 / 1000}'
  done
}
cat "$work"/reports/* >/dev/null  # warm the page cache
fleet_s=$(time_runs "$gpudoctor" fleet "$work/reports" | median)
jq_s=$(time_runs sh -c "find '$work/reports' -name '*.json' -print0 | xargs -0 jq -c '{host, ids: [.findings[].id]}'" | median)
rss_kb=$({ /usr/bin/time -f %M "$gpudoctor" fleet "$work/reports" 2>&1 >/dev/null || true; } | tail -1)
echo "reports: $nodes, $((bytes / 1048576)) MB; runs: $runs; cores: $(nproc)"
echo "gpudoctor fleet: median ${fleet_s} s, $(awk -v b="$bytes" -v s="$fleet_s" 'BEGIN {printf "%.0f", b / 1048576 / s}') MB/s, peak RSS $((rss_kb / 1024)) MB"
echo "jq (peer):       median ${jq_s} s"
echo "fleet / jq wall time: $(awk -v a="$fleet_s" -v b="$jq_s" 'BEGIN {printf "%.2f", a / b}')"
# The same reports as one stream on standard input (pretty-printed, one after another, as `cat` or a
# DaemonSet's log gives them): read piece by piece, so its peak memory must not grow with the stream.
stdin_s=$(time_runs sh -c "cat '$work'/reports/* | '$gpudoctor' fleet -" | median)
stdin_rss_kb=$({ cat "$work"/reports/* | /usr/bin/time -f %M "$gpudoctor" fleet - 2>&1 >/dev/null || true; } | tail -1)
echo "gpudoctor fleet - (one stream on stdin): median ${stdin_s} s, peak RSS $((stdin_rss_kb / 1024)) MB"
