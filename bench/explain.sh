#!/usr/bin/env bash
# Throughput of `gpudoctor explain` on a large, realistic training log, with every signature of
# data/signatures.tsv loaded, against GNU grep running the same patterns (converted to ERE) over
# the same file: medians of RUNS runs each (wall and CPU time), MB/s and the ratios, in one run.
#
#   bench/explain.sh [GPUDOCTOR] [SIZE_MB] [RUNS]
#
# The log is generated here, in a temporary directory, and deleted afterwards: progress lines
# (tqdm bars with their '\r' redraws and UTF-8 block characters), logger lines, Python warnings,
# and every signature's example line scattered through it, plus a traceback now and then.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gpudoctor=$(realpath "${1:-build/gpudoctor}")
size_mb=${2:-512}
runs=${3:-5}
table="$here/data/signatures.tsv"
work=$(mktemp -d)
trap '[ -n "${KEEP_LOG:-}" ] && cp "$work/train.log" "$KEEP_LOG"; rm -rf "$work"' EXIT

python3 - "$table" "$work/train.log" "$size_mb" <<'PY'
import random, sys
table, out, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [l.rstrip("\n").split("\t") for l in open(table, encoding="utf-8") if l.strip() and not l.startswith("#")]
col = rows[0].index("example")
examples = [r[col] for r in rows[1:]]
rnd = random.Random(42)
bar = "\u2588"
target = size_mb * 1000 * 1000
with open(out, "w", encoding="utf-8") as f:
    written, step = 0, 0
    while written < target:
        chunk = []
        for _ in range(1000):
            step += 1
            k = rnd.random()
            if k < 0.55:
                pct = step % 100
                chunk.append(f"Epoch {step // 5000}: {pct:3d}%|{bar * (pct // 10):<10}| {step % 5000}/5000 "
                             f"[03:12<03:55, {rnd.uniform(8, 14):.2f}it/s, loss={rnd.uniform(0.1, 2):.4f}, lr=3.0e-04]\r")
            elif k < 0.85:
                chunk.append(f"[2026-12-02 14:{step % 60:02d}:{step % 59:02d},{step % 1000:03d}][trainer][INFO] - step {step} "
                             f"loss {rnd.uniform(0.1, 2):.5f} grad_norm {rnd.uniform(0.1, 5):.3f} "
                             f"tokens/s {rnd.randint(20000, 90000)} mem {rnd.uniform(10, 70):.1f}GiB\n")
            elif k < 0.97:
                chunk.append(f"{{'eval_loss': {rnd.uniform(0.1, 2):.4f}, 'eval_accuracy': {rnd.random():.4f}, "
                             f"'eval_runtime': {rnd.uniform(5, 60):.2f}, 'epoch': {step / 5000:.2f}}}\n")
            else:
                chunk.append("/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py:558: UserWarning: This "
                             "DataLoader will create 8 worker processes in total.\n")
        if step % 50000 == 0:
            chunk.append("Traceback (most recent call last):\n  File \"train.py\", line 212, in <module>\n"
                         "    loss.backward()\n")
        chunk.append(rnd.choice(examples) + "\n")
        text = "".join(chunk)
        f.write(text)
        written += len(text.encode("utf-8"))
PY

# RE2 -> POSIX ERE: named and non-capturing groups become plain groups, lazy quantifiers greedy,
# (?i:...) a plain group and a leading (?i) dropped (grep then matches those parts case-sensitively,
# a little less work for grep).
cut -f7 "$table" | grep -v '^#' | grep -v '^$' | tail -n +2 |
  sed -E 's/\(\?i\)//g; s/\(\?P<[a-z_]+>/(/g; s/\(\?i?:/(/g; s/([*+?])\?/\1/g' > "$work/patterns.ere"

bytes=$(stat -c %s "$work/train.log")
# Wall and CPU (user+sys) seconds of `runs` runs of CMD..., medians of each. CPU time is reported
# too because on a shared machine wall time measures the neighbours as much as the program.
measure() {
  local walls=() cpus=()
  for ((i = 0; i < runs; i++)); do
    local out
    # Output to a file, not /dev/null: GNU grep stops at the first match when it sees /dev/null.
    out=$( { TIMEFORMAT='%R %U %S'; time "$@" >"$work/out" 2>&1; } 2>&1 || true)
    walls+=("$(echo "$out" | awk '{print $1}')")
    cpus+=("$(echo "$out" | awk '{print $2 + $3}')")
  done
  local med='{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.3f", m}'
  echo "$(printf '%s\n' "${walls[@]}" | sort -g | awk "$med") $(printf '%s\n' "${cpus[@]}" | sort -g | awk "$med")"
}
cat "$work/train.log" >/dev/null  # page cache warm for both
read -r explain_wall explain_cpu < <(measure "$gpudoctor" explain --json "$work/train.log")
read -r grep_wall grep_cpu < <(measure env LC_ALL=C grep -E -c -f "$work/patterns.ere" "$work/train.log")
findings=$("$gpudoctor" explain --json "$work/train.log" | grep -c '"id": "log\.' || true)
grep_lines=$(LC_ALL=C grep -E -c -f "$work/patterns.ere" "$work/train.log" || true)
mbps() { awk -v b="$bytes" -v s="$1" 'BEGIN {printf "%.0f", b / 1e6 / s}'; }

echo "log: $((bytes / 1000000)) MB, $(wc -l < "$work/train.log") lines; $(wc -l < "$work/patterns.ere") patterns; runs: $runs; cores: $(nproc); load: $(cut -d' ' -f1 /proc/loadavg)"
echo "gpudoctor explain --json  wall ${explain_wall} s = $(mbps "$explain_wall") MB/s   cpu ${explain_cpu} s = $(mbps "$explain_cpu") MB/s   ($findings findings)"
echo "LC_ALL=C grep -E -c -f    wall ${grep_wall} s = $(mbps "$grep_wall") MB/s   cpu ${grep_cpu} s = $(mbps "$grep_cpu") MB/s   ($grep_lines matching lines)"
echo "ratio explain/grep throughput: wall $(awk -v a="$explain_wall" -v g="$grep_wall" 'BEGIN {printf "%.2f", g / a}'), cpu $(awk -v a="$explain_cpu" -v g="$grep_cpu" 'BEGIN {printf "%.2f", g / a}')"
