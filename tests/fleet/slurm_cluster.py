#!/usr/bin/env python3
"""`gpudoctor fleet --slurm` and `check --slurm-health` against a real Slurm cluster of three nodes.

The test starts Debian's slurmctld and three `slurmd -N nodeN` on this machine (auth/none, cred/none,
each on its own port, everything in a temporary directory), gives each node its own machine tree
(`check --root TREES/%n`): node1 healthy, node2 with a kernel module / user library version mismatch,
node3 without nvidia_uvm. It asserts what the fleet says, drains and resumes read back with
`scontrol show node`, and that a node whose check hangs is reported unreachable while the fleet
still finishes. Every daemon is stopped by pid; every wait is bounded.

  slurm_cluster.py --gpudoctor BIN --work DIR
Exit 0 passes, 1 fails, 77 skips (no Slurm daemons installed, or not root) after saying why.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines"))
import trees as T  # noqa: E402
import replay as R  # noqa: E402

SKIP = 77


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def free_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def build_tree(root, name, scenario):
    t = T.Tree(root)
    scenario(t)
    t.file("/proc/sys/kernel/hostname", name + "\n")
    t.finish()


class Cluster:
    def __init__(self, work):
        self.dir = tempfile.mkdtemp(prefix="slurm-", dir=work)
        self.procs = []
        ctld, node_default, *node_ports = free_ports(5)
        for d in ("state", "log", "spool"):
            os.makedirs(os.path.join(self.dir, d))
        self.conf = os.path.join(self.dir, "slurm.conf")
        lines = [
            "ClusterName=gpudoctortest",
            "SlurmctldHost=localhost",
            f"SlurmctldPort={ctld}",
            f"SlurmdPort={node_default}",
            "AuthType=auth/none",
            "CredType=cred/none",
            "SlurmUser=root",
            "SlurmdUser=root",
            f"StateSaveLocation={self.dir}/state",
            f"SlurmdSpoolDir={self.dir}/spool/%n",
            f"SlurmctldPidFile={self.dir}/slurmctld.pid",
            f"SlurmdPidFile={self.dir}/slurmd-%n.pid",
            f"SlurmctldLogFile={self.dir}/log/slurmctld.log",
            f"SlurmdLogFile={self.dir}/log/slurmd-%n.log",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SelectType=select/linear",
            "MpiDefault=none",
            "ReturnToService=2",
            "SchedulerType=sched/builtin",
            "JobCompType=jobcomp/none",
            "AccountingStorageType=accounting_storage/none",
            "JobAcctGatherType=jobacct_gather/none",
            "SlurmctldTimeout=30",
            "SlurmdTimeout=30",
            "InactiveLimit=0",
            "KillWait=2",
            # slurmd's own health checks (phase 6): the documented wrapper, switched on by a flag file.
            f"HealthCheckProgram={self.dir}/gpudoctor-health",
            "HealthCheckInterval=3",
            "HealthCheckNodeState=ANY",
        ]
        for i, port in enumerate(node_ports, 1):
            lines.append(f"NodeName=node{i} NodeHostname=localhost NodeAddr=127.0.0.1 Port={port} CPUs=1 State=UNKNOWN")
        lines.append("PartitionName=gpu Nodes=node[1-3] Default=YES MaxTime=INFINITE State=UP")
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        self.health_flag = os.path.join(self.dir, "health-checks-on")

    def write_health_program(self, gpd, root_arg):
        # docs/examples/slurm/gpudoctor-health, plus what a test cluster needs: slurmd runs the program
        # with SLURMD_NODENAME and no SLURM_CONF (a real cluster keeps it in /etc/slurm), and only
        # once the test switches it on.
        path = os.path.join(self.dir, "gpudoctor-health")
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\n[ -e '{self.health_flag}' ] || exit 0\nexport SLURM_CONF='{self.conf}'\n"
                    f"exec '{gpd}' check --slurm-health --timeout 20 --root '{root_arg}' >>'{self.dir}/log/health.log' 2>&1\n")
        os.chmod(path, 0o755)

    def wait_idle(self, seconds=90):
        deadline = time.time() + seconds
        states = {}
        while time.time() < deadline:
            for p in self.procs:
                check(p.poll() is None, f"a Slurm daemon exited early: {p.args} (logs in {self.dir}/log)")
            r = self.run(["sinfo", "-h", "-N", "-o", "%N|%T"], timeout=10)
            states = dict(l.split("|", 1) for l in r.stdout.split() if "|" in l)
            if len(states) == 3 and all(s == "idle" for s in states.values()):
                return time.time() - (deadline - seconds)
            time.sleep(0.5)
        raise AssertionError(f"the three nodes were not idle within {seconds} s: {states} (logs in {self.dir}/log)")

    def start(self):
        self._spawn(["slurmctld", "-D", "-f", self.conf], "slurmctld.out")
        for i in (1, 2, 3):
            os.makedirs(os.path.join(self.dir, "spool", f"node{i}"), exist_ok=True)
            self._spawn(["slurmd", "-D", "-N", f"node{i}", "-f", self.conf], f"slurmd-node{i}.out")
        self.wait_idle(60)

    def _spawn(self, argv, log):
        out = open(os.path.join(self.dir, "log", log), "w")
        self.procs.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=self.env,
                                           start_new_session=True))

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.time() + 15
        for p in self.procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=10)

    def run(self, argv, timeout=120):
        return subprocess.run(argv, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=timeout)

    def node(self, name):
        r = self.run(["scontrol", "-o", "show", "node", name], timeout=10)
        check(r.returncode == 0, f"scontrol show node {name}: {r.stderr}")
        fields = {}
        line = r.stdout.strip()
        reason = ""
        if " Reason=" in line:
            line, reason = line.split(" Reason=", 1)
        for item in line.split():
            if "=" in item:
                k, v = item.split("=", 1)
                fields[k] = v
        # "Reason=gpudoctor: driver.uvm_missing [root@2026-12-03T15:14:14]"
        fields["Reason"] = reason.rsplit(" [", 1)[0] if reason else ""
        return fields


def groups_by_node(fleet):
    out = {}
    for g in fleet["groups"]:
        for n in g["nodes"]:
            out[n] = [f["id"] for f in g["findings"] if f["severity"] == "error"]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    missing = [c for c in ("slurmctld", "slurmd", "srun", "sinfo", "scontrol") if shutil.which(c) is None]
    if missing:
        print(f"SKIP: Slurm is not installed ({', '.join(missing)} missing; Debian: slurmctld slurmd slurm-client)")
        return SKIP
    if os.geteuid() != 0:
        print("SKIP: slurmd must run as root to start job steps (run the test suite as root)")
        return SKIP
    gpd = os.path.abspath(a.gpudoctor)
    os.makedirs(a.work, exist_ok=True)
    cluster = Cluster(os.path.abspath(a.work))
    trees = os.path.join(cluster.dir, "trees")
    build_tree(os.path.join(trees, "node1"), "node1", R.healthy_nvidia_server)
    build_tree(os.path.join(trees, "node2"), "node2", R.driver_upgraded_without_reboot)
    build_tree(os.path.join(trees, "node3"), "node3", R.uvm_not_loaded)
    root_arg = os.path.join(trees, "%n")
    cluster.write_health_program(gpd, root_arg)
    try:
        cluster.start()

        # 1. The fleet names exactly the two broken nodes, grouped, with their root causes.
        r = cluster.run([gpd, "fleet", "--slurm", "--deadline", "60", "--json", "--", "--root", root_arg], timeout=200)
        check(r.returncode == 1, f"fleet exit {r.returncode} (want 1: nodes fail), stderr {r.stderr[-2000:]}")
        fleet = json.loads(r.stdout)
        check(fleet["nodes"] == {"total": 3, "healthy": 1, "failing": 2, "unreachable": 0}, f"counts {fleet['nodes']}")
        by_node = groups_by_node(fleet)
        check(by_node == {"node1": [], "node2": ["driver.version_mismatch"], "node3": ["driver.uvm_missing"]},
              f"groups {by_node}")
        failing = [f for f in fleet["findings"] if f["id"] == "fleet.failing_nodes"]
        check(failing and failing[0]["message"] == "2 of 3 nodes fail a check: node[2-3].", f"fleet findings {fleet['findings']}")
        check(fleet["findings"][0]["id"] == "fleet.failing_nodes", "the failing nodes come first")
        text = cluster.run([gpd, "fleet", "--slurm", "--deadline", "60", "--", "--root", root_arg], timeout=200).stdout
        check("node2: driver.version_mismatch" in text and "node3: driver.uvm_missing" in text, f"text report:\n{text}")
        print("fleet --slurm: node[2-3] fail, each with its root cause")

        # 2. --dry-run changes nothing; --slurm-health drains exactly the broken nodes, on each node via srun.
        r = cluster.run([gpd, "check", "--root", os.path.join(trees, "node2"), "--slurm-health", "--node", "node2", "--dry-run"])
        check(r.returncode == 1 and "would run: scontrol update NodeName=node2 State=DRAIN" in r.stdout, f"dry run: {r.stdout}")
        check("DRAIN" not in cluster.node("node2")["State"], "--dry-run drained nothing")
        for n in ("node1", "node2", "node3"):
            r = cluster.run(["srun", "-w", n, gpd, "check", "--root", root_arg, "--slurm-health"], timeout=120)
            want = 0 if n == "node1" else 1
            check(r.returncode == want, f"--slurm-health on {n}: exit {r.returncode}, want {want}; {r.stdout[-500:]} {r.stderr[-1000:]}")
        states = {n: cluster.node(n) for n in ("node1", "node2", "node3")}
        check("DRAIN" not in states["node1"]["State"], f"node1 stays up: {states['node1']}")
        check("DRAIN" in states["node2"]["State"] and states["node2"]["Reason"] == "gpudoctor: driver.version_mismatch",
              f"node2 drained: {states['node2']}")
        check("DRAIN" in states["node3"]["State"] and states["node3"]["Reason"] == "gpudoctor: driver.uvm_missing",
              f"node3 drained: {states['node3']}")
        print("check --slurm-health: node2 and node3 drained with their reasons, node1 untouched")

        # 3. A fleet over drained nodes says why they gave no report.
        r = cluster.run([gpd, "fleet", "--slurm", "--deadline", "60", "--json", "--", "--root", root_arg], timeout=200)
        fleet = json.loads(r.stdout)
        unreachable = [f for f in fleet["findings"] if f["id"] == "fleet.node_unreachable"]
        check(unreachable and "node[2-3]" in unreachable[0]["message"], f"drained nodes unreachable: {fleet['findings']}")
        check(any("gpudoctor: driver.uvm_missing" in e for e in unreachable[0]["evidence"]), f"evidence {unreachable[0]}")

        # 4. Someone else's drain is never touched; ours is lifted once the node is healthy.
        cluster.run(["scontrol", "update", "NodeName=node1", "State=DRAIN", "Reason=cable swap"])
        build_tree(os.path.join(trees, "node2"), "node2", R.healthy_nvidia_server)
        build_tree(os.path.join(trees, "node3"), "node3", R.healthy_nvidia_server)
        for n in ("node1", "node2", "node3"):
            r = cluster.run([gpd, "check", "--root", os.path.join(trees, n), "--slurm-health", "--node", n])
            check(r.returncode == 0, f"healthy {n}: exit {r.returncode}: {r.stdout[-300:]} {r.stderr[-500:]}")
        states = {n: cluster.node(n) for n in ("node1", "node2", "node3")}
        check("DRAIN" in states["node1"]["State"] and states["node1"]["Reason"] == "cable swap", f"node1 left alone: {states['node1']}")
        check("DRAIN" not in states["node2"]["State"] and "DRAIN" not in states["node3"]["State"],
              f"node2 and node3 resumed: {states['node2']['State']} {states['node3']['State']}")
        cluster.run(["scontrol", "update", "NodeName=node1", "State=RESUME"])
        print("check --slurm-health: node2 and node3 resumed, node1's admin drain kept")
        # A resumed node is "not responding" (idle*) until slurmctld's next ping reaches its slurmd.
        waited = cluster.wait_idle(120)
        print(f"the resumed nodes answered slurmctld again after {waited:.0f} s")

        # 5. A node whose check hangs is unreachable after its deadline; the fleet still finishes.
        hang = os.path.join(cluster.dir, "gpudoctor-hangs-on-node3")  # a test double of a stuck node
        with open(hang, "w") as f:
            f.write(f'#!/bin/sh\n[ "$SLURMD_NODENAME" = node3 ] && sleep 600\nexec "{gpd}" "$@"\n')
        os.chmod(hang, 0o755)
        t0 = time.time()
        r = cluster.run([gpd, "fleet", "--slurm", "--deadline", "5", "--gpudoctor", hang, "--json", "--", "--root", root_arg],
                        timeout=120)
        took = time.time() - t0
        fleet = json.loads(r.stdout)
        check(took < 60, f"the fleet finished {took:.0f} s after a 5 s deadline")
        unreachable = [f for f in fleet["findings"] if f["id"] == "fleet.node_unreachable"]
        check(unreachable and unreachable[0]["message"] == "1 node gave no report: node3.", f"hung node: {fleet['findings']}")
        check("deadline" in unreachable[0]["evidence"][0], f"the reason names the deadline: {unreachable[0]['evidence']}")
        check(fleet["nodes"]["healthy"] == 2, f"the others still reported: {fleet['nodes']}")
        print(f"fleet --slurm: node3 hung, reported unreachable; the fleet finished in {took:.1f} s")

        # 6. As slurm.conf's HealthCheckProgram, run by slurmd itself every few seconds.
        cluster.wait_idle(120)
        build_tree(os.path.join(trees, "node2"), "node2", R.uvm_not_loaded)
        open(cluster.health_flag, "w").close()
        deadline = time.time() + 60
        while time.time() < deadline and "DRAIN" not in cluster.node("node2")["State"]:
            time.sleep(0.5)
        state = cluster.node("node2")
        check("DRAIN" in state["State"] and state["Reason"] == "gpudoctor: driver.uvm_missing",
              f"slurmd's health check drained node2 within 60 s: {state} (log: {cluster.dir}/log/health.log)")
        check(all("DRAIN" not in cluster.node(n)["State"] for n in ("node1", "node3")), "the healthy nodes stay up")
        build_tree(os.path.join(trees, "node2"), "node2", R.healthy_nvidia_server)
        deadline = time.time() + 60
        while time.time() < deadline and "DRAIN" in cluster.node("node2")["State"]:
            time.sleep(0.5)
        check("DRAIN" not in cluster.node("node2")["State"], "slurmd's health check resumed node2 once healthy")
        print("HealthCheckProgram: slurmd's own health check drained node2, then resumed it once fixed")
    finally:
        cluster.stop()
    shutil.rmtree(cluster.dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print(f"FAIL: {e}")
        sys.exit(1)
