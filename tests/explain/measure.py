#!/usr/bin/env python3
"""Measures `gpudoctor explain` on the corpus of real public posts (tests/explain/corpus).

Each case file holds a header (source, category, framework, root_cause, split) and, after a line
"---", the post as its reporter pasted it. A case is a top-1 hit when the first finding's id is one of
the ids in root_cause ("a|b": ids that name the same cause). "Nothing" counts posts answered with no
finding at all.

  measure.py --gpudoctor BIN [--split dev|test|test2|test3|test4|test5|test6|test7|test8|test9|test10|test11|test12|test13|test14|test15|test16|test17|test18|test19|test20|test21|test22|test23|test24|test25|all] [--misses] [--min-top1 SPLIT=PCT ...]

Splits: dev (the rules were written from these), test (held out, but its misses have been read),
test2 (collected later and held out: no rule was written while looking at it; its misses were read
once, for a closing note), test3 (a later batch, held out the same way; read after its first measurement), test4 (a small
batch, not read), test5 (377-400) and test6 (401-414), both held out until their first
measurement and read on 2026-12-06, test7 (415-447, collected blind on 2026-12-06, measured
once at 50.0 % and then read), test8 (455-486, collected blind on 2026-12-06, measured once at
45.8 % and then read), and test9 (495-529, collected blind on 2026-12-06, measured once at 45.5 % after
the rules written from test8, the same 45.5 % as before them, and then read), and test10 (530-541, collected blind on 2026-12-06 after the test8 and test9 rules
were written, measured once at 41.7 %, the same as the explain of the start of that session), and test11 (542-580,
collected blind on 2026-12-06 after the test10 rules were written, measured once at 41.0 % and then read), and
test12 (581-620, collected blind on 2026-12-07 after the test11 rules, measured once at 30.0 % and then
read), test13 (621-660, collected blind on 2026-12-07 after the test12 rules, measured once at 28.6 % and
then read), test14 (661-698, collected blind on 2026-12-07 while the test13 rules were written, measured
once at 34.2 % and then read), test15 (701-740, collected blind while the test14 rules were written,
measured once at the end of that session, unread, at 37.5 %, and read in the next), test16 (741-780,
collected blind while the test15 rules were written, measured once at 32.5 %; 30.0 % without those rules; then
read), and test17 (781-820, collected blind while the test15 and test16 rules were written, measured once at 35.0 %,
the same without those rules; then read), and test18 (821-860, collected blind in the next session while its
rules were written from the test17 misses, measured once at 57.5 %: 52.5 % with the analyser before the 63 mined
signature rows, 47.5 % with the one of the start of the session before; then read), and test19 (861-900, collected blind later in
that session, measured once at 45.0 %: 42.5 % with the analyser before that session's later rules, 32.5 % with the
ones of the two sessions before; read in the next session), and test20 (901-940, collected blind at the start of the next session,
measured once at 45.0 % before any change of that session: 40.0 % and 35.0 % with the analysers of the two sessions
before; read in the next session), and test21 (941-980, collected blind at the start of that next session and measured
once at 45.0 % before any explain change of that session).

With --min-top1 it is a ratchet: it exits 1 when a split's top-1 falls below the given percentage,
so an accuracy that was reached is never lost unnoticed.
"""

import argparse
import collections
import json
import os
import subprocess
import sys

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


# A log signature and a check can name the same cause from two kinds of evidence: the message a
# framework printed, or the versions the text showed. Both answer the post, so either counts.
SAME_CAUSE = [
    {"torch.arch_unsupported", "log.arch_not_compatible"},
    {"torch.cuda_too_new_for_driver", "log.driver_too_old", "driver.too_old_for_runtime"},
    {"driver.version_mismatch", "log.nvml_version_mismatch"},
    {"torch.cpu_only_build", "log.torch_not_compiled_with_cuda"},
    {"framework.library_built_without_cuda", "log.library_built_without_cuda"},
    # Labels proposed, before the id existed, for an AMD GPU whose gfx target ROCm's builds carry no code for.
    {"amd.gpu_unsupported_by_rocm", "amd.gfx_target_not_in_rocm_build", "amd.gfx1032_needs_hsa_override"},
    {"windows.update_replaced_nvidia_driver", "windows.update_replaces_wsl_capable_gpu_driver"},
    {"vulkan.nvidia_icd_missing", "vulkan.nvidia_vulkan_driver_library_missing"},
    # A message that names the cause an explain-only or check id names from other evidence.
    {"amd.gpu_unsupported_by_rocm", "log.rocm_gfx_unsupported"},
    {"driver.gpu_unsupported_by_driver", "log.gpu_needs_legacy_driver"},
    {"ort.cuda_provider_libs_missing", "log.ort_cuda_provider_failed"},
    {"gpu.ecc_uncorrectable", "log.ecc_uncorrectable"},
    # nvidia-smi's "couldn't communicate with the NVIDIA driver": the module is not loaded.
    {"driver.module_not_loaded", "log.no_nvidia_driver"},
    # The live check's trigger is a libcuda outside /usr/lib/wsl under WSL: the wrong libcuda loaded.
    {"wsl.linux_driver_installed", "wsl.wrong_libcuda_loaded"},
    {"toolchain.lib_unresolved", "log.cuda_library_missing"},
    {"gpu.bf16_unsupported", "log.bf16_unsupported"},
    {"vllm.arch_unsupported", "log.vllm_arch_unsupported"},
    {"mxnet.cpu_only_build", "log.mxnet_cpu_build"},
    {"jax.plugin_version_mismatch", "log.jax_plugin_mismatch"},
    {"nccl.no_usable_network_interface", "log.nccl_no_network_interface"},
    {"hw.nouveau_bound", "log.nouveau_bound"},
    {"driver.cuda_init_failed", "log.cuda_init_failed"},
    {"probe.symbol_missing", "log.driver_library_lacks_symbol"},
    {"llama.built_without_cuda", "log.llama_built_without_gpu"},
    {"tensorrt.engine_version_mismatch", "log.tensorrt_engine_mismatch"},
    {"wsl.no_gpu_support", "log.wsl_no_gpu_adapter"},
    {"container.no_gpu", "log.container_without_gpu"},
    {"jax.cpu_only", "log.jaxlib_cpu_only"},
    {"wsl.pinned_memory_limited", "log.wsl_pinned_memory_limited"},
    {"compose.gpu_flag_passed_to_app", "log.gpus_flag_given_to_program"},
    {"binding.cuda_version_mismatch", "log.jcuda_native_library_failed"},
    {"ollama.arch_unsupported", "log.ollama_gpu_too_old"},
    {"llama.no_gpu_layers", "log.llama_no_gpu_layers"},
    {"container.k8s_default_runtime_not_nvidia", "log.k8s_device_plugin_no_nvml"},
    {"gpu.exclusive_busy", "log.cuda_devices_unavailable"},
    {"driver.device_nodes_missing", "log.device_node_missing"},
    # CUDA_VISIBLE_DEVICES naming no GPU of the machine (`=1` on a one-GPU box): the log id names the
    # variable and its fix (indices below the GPU count), the environment check the same from the value.
    {"env.cuda_visible_devices_invalid", "log.cuda_visible_devices_none"},
    # A Mac has no NVIDIA GPU: the labellers named it per Mac (Apple silicon, a Mac Pro's AMD card).
    {"hw.no_gpu", "macos.apple_silicon_no_cuda", "macos.amd_gpu_not_usable_by_torch"},
    # A compiled extension built for another torch: the generic id and a labeller's per-package name.
    {"log.extension_built_for_other_torch", "flash_attn.binary_built_for_other_torch"},
    {"ollama.llm_library_override_unmatched", "log.ollama_library_skipped"},
    # A library whose installed build has no CUDA: the generic ids, and the names the labellers gave it
    # per library before the catalogue had one.
    {"framework.library_built_without_cuda", "log.library_built_without_cuda", "framework.dlib_built_without_cuda",
     "framework.opencv_built_without_cuda", "ctranslate2.wheel_without_cuda_on_aarch64",
     "framework.mmcv_ops_built_without_cuda", "whispercpp.built_without_cuda", "blender.built_without_cuda_kernels"},
]


# A label "new:ID" names a cause for which the catalogue had no finding when the case was labelled;
# a finding of that id (or of its SAME_CAUSE group) answers it once one exists.
def label_id(want):
    return want[4:] if want.startswith("new:") else want


def accepted(want):
    out = {label_id(w) for w in want}
    for group in SAME_CAUSE:
        if out & group:
            out |= group
    return out


def load_cases():
    cases = []
    for name in sorted(os.listdir(CORPUS)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
            text = f.read()
        head, sep, body = text.partition("\n---\n")
        if not sep:
            raise SystemExit(f"{name}: no '---' line between header and body")
        meta = {}
        for line in head.splitlines():
            if line.startswith("# ") and ":" in line:
                key, _, value = line[2:].partition(":")
                meta[key.strip()] = value.strip()
        for key in ("source", "category", "root_cause", "split"):
            if key not in meta:
                raise SystemExit(f"{name}: header lacks '{key}'")
        meta["name"] = name
        meta["body"] = body
        meta["want"] = [w.strip() for w in meta["root_cause"].split("|")]
        cases.append(meta)
    return cases


def explain(gpd, body):
    r = subprocess.run([gpd, "explain", "--json", "-"], input=body.encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    if r.returncode not in (0, 1, 3):
        return None, f"exit {r.returncode}: {r.stderr.decode()[-300:]}"
    try:
        report = json.loads(r.stdout)
    except json.JSONDecodeError as e:
        return None, f"not JSON: {e}"
    return [f["id"] for f in report.get("findings", [])], None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--split", default="all", choices=["dev", "test", "test2", "test3", "test4", "test5", "test6", "test7", "test8", "test9", "test10", "test11", "test12", "test13", "test14", "test15", "test16", "test17", "test18", "test19", "test20", "test21", "test22", "test23", "test24", "test25", "all"])
    ap.add_argument("--misses", action="store_true", help="list every case whose first finding is not the cause")
    ap.add_argument("--min-top1", action="append", default=[], metavar="SPLIT=PCT")
    a = ap.parse_args()

    cases = load_cases()
    per_split = collections.defaultdict(lambda: [0, 0, 0])  # cases, top1, nothing
    per_cat = collections.defaultdict(lambda: [0, 0, 0])
    errors = []
    misses = []
    for c in cases:
        if a.split != "all" and c["split"] != a.split:
            continue
        ids, err = explain(a.gpudoctor, c["body"])
        if err:
            errors.append(f"{c['name']}: {err}")
            ids = []
        hit = bool(ids) and ids[0] in accepted(c["want"])
        for table, key in ((per_split, c["split"]), (per_cat, (c["split"], c["category"]))):
            table[key][0] += 1
            table[key][1] += hit
            table[key][2] += not ids
        if not hit:
            misses.append(f"{c['split']:4} {c['name']:55} want {c['root_cause']:55} got {', '.join(ids[:3]) or '(nothing)'}")

    def pct(n, d):
        return 100.0 * n / d if d else 0.0

    print(f"{'split':6} {'cases':>5} {'top-1':>7} {'nothing':>8}")
    for split in sorted(per_split):
        n, hit, none = per_split[split]
        print(f"{split:6} {n:5} {pct(hit, n):6.1f}% {none:8}")
    print()
    print(f"{'split':6} {'category':10} {'cases':>5} {'top-1':>7} {'nothing':>8}")
    for (split, cat) in sorted(per_cat):
        n, hit, none = per_cat[(split, cat)]
        print(f"{split:6} {cat:10} {n:5} {pct(hit, n):6.1f}% {none:8}")
    if a.misses:
        print("\nmisses:")
        for m in misses:
            print("  " + m)
    for e in errors:
        print("error: " + e)
    status = 1 if errors else 0
    for floor in a.min_top1:
        split, _, value = floor.partition("=")
        n, hit, _ = per_split.get(split, [0, 0, 0])
        if n == 0 or pct(hit, n) < float(value):
            print(f"ratchet: {split} top-1 {pct(hit, n):.1f}% is below {value}%")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
