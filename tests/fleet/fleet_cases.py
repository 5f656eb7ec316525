#!/usr/bin/env python3
"""`gpudoctor fleet` on reports from files and streams, and every `--prometheus` output checked by the
real `promtool check metrics` (Debian's prometheus package).

Each case is one ctest test: fleet_cases.py --gpudoctor BIN --work DIR --doubles DIR CASE. Exit 0
passes, 1 fails, 77 skips (a tool the case needs is not installed) after saying why.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "machines"))
import trees as T  # noqa: E402
import replay as R  # noqa: E402

SKIP = 77


class Skip(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def run(args, **kw):
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("timeout", 240)
    return subprocess.run(args, **kw)


def tree(work, name, scenario, hostname=None):
    t = T.Tree(os.path.join(work, "trees", name))
    scenario(t)
    if hostname:
        t.file("/proc/sys/kernel/hostname", hostname + "\n")
    t.finish()
    return t.root


def check_json(gpd, root, env=None):
    r = run([gpd, "check", "--root", root, "--json"], env=env)
    check(r.returncode in (0, 1), f"check --root {root}: exit {r.returncode} {r.stderr[-500:]!r}")
    return r.stdout.decode()


def promtool(path):
    exe = shutil.which("promtool")
    if exe is None:
        raise Skip("promtool is absent (Debian: apt-get install prometheus)")
    r = run([exe, "check", "metrics"], stdin=open(path, "rb"))
    # promtool prints lint problems and exits non-zero for them as for syntax errors.
    check(r.returncode == 0, f"promtool check metrics {path}: exit {r.returncode}\n{r.stdout.decode()}{r.stderr.decode()}")


def metrics(path):
    with open(path) as f:
        return f.read()


# --- cases -----------------------------------------------------------------------------------


def case_prometheus_check(gpd, work, doubles):
    out = os.path.join(work, "textfile")
    os.makedirs(out, exist_ok=True)
    # A healthy server, a broken one, and a tree in which nothing at all can be read.
    for name, scenario in (("healthy", R.healthy_nvidia_server), ("mismatch", R.driver_upgraded_without_reboot)):
        prom = os.path.join(out, f"{name}.prom")
        r = run([gpd, "check", "--root", tree(work, name, scenario), "--prometheus", prom])
        check(r.returncode in (0, 1), f"{name}: exit {r.returncode}")
        promtool(prom)
    text = metrics(os.path.join(out, "mismatch.prom"))
    check("gpudoctor_check_ok 0\n" in text, "a broken machine is not ok")
    check('gpudoctor_finding{id="driver.version_mismatch",layer="driver",severity="error"} 1' in text, text)
    check('gpudoctor_driver_info{version="550.54.14"' in text, "the driver version is a label")
    check(text.count("gpudoctor_gpu_info{") == 2, "two GPUs from the kernel module")
    check("gpudoctor_check_ok 1\n" in metrics(os.path.join(out, "healthy.prom")), "a healthy machine is ok")

    empty = os.path.join(work, "trees", "nothing-readable")
    os.makedirs(empty, exist_ok=True)
    prom = os.path.join(out, "nothing.prom")
    env = dict(os.environ, GPUDOCTOR_NVML_LIBRARY="none", GPUDOCTOR_CUDA_LIBRARY="none", GPUDOCTOR_CUDART_LIBRARY="none")
    r = run([gpd, "check", "--root", empty, "--prometheus", prom], env=env)
    check(r.returncode in (0, 1), f"empty tree: exit {r.returncode} {r.stderr[-300:]!r}")
    promtool(prom)
    check("gpudoctor_gpus 0\n" in metrics(prom), "no GPU read is 0 GPUs in the gauge")

    # Eight GPUs of three models, through the NVML test double on the live machine.
    scenario = os.path.join(HERE, "..", "driver", "mixed_models_8.scenario")
    env = dict(os.environ, GPUDOCTOR_NVML_LIBRARY=os.path.join(doubles, "libnvidia-ml.so.1"),
               GPUDOCTOR_CUDA_LIBRARY="none", GPUDOCTOR_CUDART_LIBRARY="none", GPUDOCTOR_FAKE_SCENARIO=scenario)
    prom = os.path.join(out, "eight.prom")
    r = run([gpd, "check", "--prometheus", prom], env=env)
    check(r.returncode in (0, 1), f"eight GPUs: exit {r.returncode} {r.stderr[-300:]!r}")
    promtool(prom)
    text = metrics(prom)
    check(text.count("gpudoctor_gpu_info{") == 8 and "gpudoctor_gpus 8\n" in text, f"eight GPUs:\n{text}")
    check('compute_capability="8.0"' in text and 'cuda_driver_api="12.4"' in text, "NVML's answers are labels")
    check('gpudoctor_probe_duration_seconds{probe="driver"}' in text, "probe durations")

    # Atomic: the previous file is replaced whole, and no temporary file is left for the collector.
    r = run([gpd, "check", "--root", tree(work, "healthy", R.healthy_nvidia_server), "--prometheus", prom])
    check("gpudoctor_gpus 2\n" in metrics(prom), "rewritten")
    check(sorted(os.listdir(out)) == ["eight.prom", "healthy.prom", "mismatch.prom", "nothing.prom"],
          f"only .prom files: {os.listdir(out)}")
    r = run([gpd, "check", "--root", empty, "--prometheus", os.path.join(work, "no", "such", "dir.prom")], env=env)
    check(r.returncode == 2 and b"no/such/dir.prom" in r.stderr, f"unwritable: {r.returncode} {r.stderr!r}")


def reports(gpd, work):
    """Three real check reports: node1 healthy, node2 mismatch, node3 no nvidia_uvm."""
    d = os.path.join(work, "reports")
    os.makedirs(d, exist_ok=True)
    paths = []
    for name, scenario in (("node1", R.healthy_nvidia_server), ("node2", R.driver_upgraded_without_reboot),
                           ("node3", R.uvm_not_loaded)):
        p = os.path.join(d, f"{name}.json")
        with open(p, "w") as f:
            f.write(check_json(gpd, tree(work, name, scenario, hostname=name)))
        paths.append(p)
    return d, paths


def case_bad_reports(gpd, work, doubles):
    d, paths = reports(gpd, work)
    good = open(paths[0]).read()
    bad = os.path.join(work, "bad")
    os.makedirs(bad, exist_ok=True)
    cases = {
        "truncated.json": open(paths[1]).read()[:700],
        "newer.json": json.dumps(dict(json.loads(good), schema_version=9, tool_version="9.0.0")),
        "garbage.json": "\x00\xff\x1b]0;owned\x07 not json at all\n",
        "scan.json": good.replace('"command": "check"', '"command": "scan"', 1),
    }
    for name, text in cases.items():
        with open(os.path.join(bad, name), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
    # 100 MB: refused with a message, without reading it whole.
    with open(os.path.join(bad, "huge.json"), "wb") as f:
        f.write(b'{"pad": "' + b"x" * (100 << 20) + b'"}')
    # The same host twice: the newer report is kept.
    dup = good.replace('"time": "', '"time": "0', 1)
    with open(os.path.join(bad, "node1-old.json"), "w") as f:
        f.write(dup)
    r = run([gpd, "fleet", "--json", *paths, bad])
    check(r.returncode == 1, f"exit {r.returncode} {r.stderr[-500:]!r}")
    j = json.loads(r.stdout)
    check(j["nodes"]["total"] == 3 and j["nodes"]["failing"] == 2, f"the good reports are still joined: {j['nodes']}")
    invalid = [f for f in j["findings"] if f["id"] == "fleet.report_invalid"]
    check(invalid, "bad reports are a finding")
    ev = "\n".join(invalid[0]["evidence"])
    for needle in ("truncated.json: not valid JSON", "newer.json: report schema_version 9", "garbage.json",
                   "scan.json: a `gpudoctor scan` report", "huge.json: larger than 32 MB"):
        check(needle in ev, f"{needle!r} in\n{ev}")
    check("\x1b" not in r.stdout.decode(), "no raw escape from a report reaches the output")
    check(any(f["id"] == "fleet.duplicate_report" for f in j["findings"]), "duplicate host found")
    text = run([gpd, "fleet", *paths, bad]).stdout.decode()
    check("\x1b" not in text and "\\x1b" in text, "the text output neutralises the escape sequence")

    # Nothing readable at all: a clear message and exit 2, never "all fine".
    r = run([gpd, "fleet", os.path.join(bad, "garbage.json"), os.path.join(work, "no-such-file")])
    check(r.returncode == 2 and b"no report could be read" in r.stderr and b"no-such-file" in r.stderr,
          f"nothing readable: {r.returncode} {r.stderr!r}")
    r = run([gpd, "fleet"])
    check(r.returncode == 2, "no argument is a usage error")


def case_streams_and_hostile_names(gpd, work, doubles):
    d, paths = reports(gpd, work)
    # pdsh output: every line prefixed with the host; the host name is the node's name.
    pdsh = ""
    for host, p in (("gpu017", paths[0]), ("gpu018", paths[1])):
        for line in open(p).read().splitlines():
            pdsh += f"{host}: {line}\n"
    r = run([gpd, "fleet", "--json", "-"], input=pdsh.encode())
    j = json.loads(r.stdout)
    nodes = sorted(n for g in j["groups"] for n in g["nodes"])
    check(nodes == ["gpu017", "gpu018"], f"pdsh hosts: {nodes}")
    # JSON lines, as a DaemonSet's log collects them.
    lines = "".join(json.dumps(json.load(open(p))) + "\n" for p in paths)
    r = run([gpd, "fleet", "--json", "-"], input=lines.encode())
    check(json.loads(r.stdout)["nodes"]["total"] == 3, "three JSON lines, three nodes")
    # A node killed mid-write: its line is cut short, and only it is lost.
    compact = [json.dumps(json.load(open(p))) for p in paths]
    cut = compact[0] + "\n" + compact[1][:300] + "\n" + compact[2] + "\n"
    r = run([gpd, "fleet", "--json", "-"], input=cut.encode())
    j = json.loads(r.stdout)
    check(j["nodes"]["total"] == 2, f"a truncated line loses only its own report: {j['nodes']}")
    check(any(f["id"] == "fleet.report_invalid" for f in j["findings"]), "the truncated line is reported")
    # A directory and a file in it: one report, not a duplicate node.
    r = run([gpd, "fleet", "--json", d, paths[0], os.path.join(d, ".", os.path.basename(paths[1]))])
    j = json.loads(r.stdout)
    check(j["nodes"]["total"] == 3, f"overlapping paths: {j['nodes']}")
    check(not any(f["id"] in ("fleet.duplicate_report", "fleet.report_invalid") for f in j["findings"]),
          f"no false duplicate: {[f['id'] for f in j['findings']]}")

    # Host names that need escaping in Markdown, HTML and Prometheus labels.
    hostile = os.path.join(work, "hostile")
    os.makedirs(hostile, exist_ok=True)
    names = ['evil|node*1', 'quote"back\\slash', 'new\nline', '<script>x</script>']
    for i, name in enumerate(names):
        j = json.load(open(paths[1]))
        j["host"] = name
        with open(os.path.join(hostile, f"{i}.json"), "w") as f:
            json.dump(j, f)
    md = run([gpd, "fleet", "--markdown", hostile]).stdout.decode()
    check("evil\\|node\\*1" in md and "&lt;script&gt;" in md, f"markdown escapes:\n{md}")
    check("<script>" not in md, "no raw HTML in Markdown")
    html = run([gpd, "fleet", "--html", hostile]).stdout.decode()
    check("<script>" not in html and "&lt;script&gt;" in html, "HTML escapes")
    prom = os.path.join(work, "fleet.prom")
    r = run([gpd, "fleet", hostile, "--prometheus", prom])
    check(r.returncode == 1, f"exit {r.returncode}")
    promtool(prom)
    text = metrics(prom)
    check('node="quote\\"back\\\\slash"' in text and 'node="new\\nline"' in text, f"labels escaped:\n{text}")
    # And a real three-node fleet's metrics.
    r = run([gpd, "fleet", d, "--prometheus", prom])
    promtool(prom)
    text = metrics(prom)
    check('gpudoctor_fleet_nodes{state="failing"} 2' in text, text)
    check('gpudoctor_fleet_node_finding{node="node3",id="driver.uvm_missing",severity="error",layer="driver"} 1' in text, text)


def chromium():
    for name in ("chromium", "chromium-browser"):
        p = shutil.which(name)
        if p:
            return p
    return None


def case_html_chromium(gpd, work, doubles):
    browser = chromium()
    if browser is None:
        raise Skip("chromium is absent (Debian: apt-get install chromium)")
    d, paths = reports(gpd, work)
    page = os.path.join(work, "fleet.html")
    with open(page, "wb") as f:
        f.write(run([gpd, "fleet", "--html", d]).stdout)
    shot = os.path.join(work, "fleet.png")
    if os.path.exists(shot):
        os.unlink(shot)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with tempfile.TemporaryDirectory() as profile:
        r = run([browser, *flags, f"--user-data-dir={profile}", f"--screenshot={shot}", "--window-size=1200,900",
                 "file://" + page], timeout=120)
    check(os.path.exists(shot) and os.path.getsize(shot) > 10000, f"screenshot: rc {r.returncode} {r.stderr[-1000:]!r}")
    with tempfile.TemporaryDirectory() as profile:
        r = run([browser, *flags, f"--user-data-dir={profile}", "--dump-dom", "file://" + page], timeout=120)
    dom = r.stdout.decode("utf-8", "replace")
    for needle in ('id="fleet.failing_nodes"', "2 of 3 nodes fail a check: node[2-3].", "driver.uvm_missing",
                   '<table id="groups">', "1 healthy"):
        check(needle in dom, f"{needle!r} in the rendered page")
    print(f"screenshot: {shot}")


CASES = {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--doubles", required=True)
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    work = os.path.join(os.path.abspath(a.work), a.case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        CASES[a.case](os.path.abspath(a.gpudoctor), work, os.path.abspath(a.doubles))
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    except AssertionError as e:
        print(f"FAIL: {e}")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
