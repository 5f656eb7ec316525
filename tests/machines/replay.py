#!/usr/bin/env python3
"""Replays every machine scenario with `gpudoctor check --root TREE --json` and checks the findings.

Each scenario names the exact set of error-severity findings it must produce; `also` lists
warning/info ids that must be present too, and `absent` ids that must not be. For the healthy
machines no warning of the environment layer may appear either.

  replay.py --gpudoctor build/gpudoctor --work build/machines [--only NAME] [--list]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trees as T  # noqa: E402

SCENARIOS = []


def scenario(errors=(), also=(), absent=(), healthy=False, evidence=()):
    def register(fn):
        SCENARIOS.append(dict(name=fn.__name__, build=fn, errors=set(errors), also=set(also),
                              absent=set(absent), healthy=healthy, evidence=tuple(evidence)))
        return fn
    return register


# ---------------------------------------------------------------- healthy machines

@scenario(healthy=True)
def healthy_nvidia_server(t):
    T.nvidia_server(t)


@scenario(healthy=True)
def healthy_nvidia_desktop_with_intel_igpu(t):
    T.nvidia_desktop(t)


@scenario(healthy=True)
def healthy_amd_workstation(t):
    T.amd_workstation(t)


@scenario(also={"hw.no_gpu"}, absent={"probe.unreadable"})
def healthy_no_gpu_vm(t):
    T.no_gpu_vm(t)


@scenario(healthy=True)
def healthy_container_with_gpu(t):
    T.container_with_gpu(t)


@scenario(healthy=True, absent={"wsl.no_gpu_support", "hw.no_gpu", "driver.module_not_loaded"})
def healthy_wsl2(t):
    T.wsl(t)


# ---------------------------------------------------------------- hardware

@scenario(errors={"hw.nouveau_bound"}, evidence=("nouveau is not blacklisted",))
def nouveau_bound(t):
    T.nvidia_desktop(t)
    t.bind("0000:01:00.0", "nouveau")
    for m in ("nvidia", "nvidia_modeset", "nvidia_drm", "nvidia_uvm"):
        t.unload(m)
    t.module("nouveau")
    t.remove("/proc/driver/nvidia")
    for lib in ("libnvidia-ml", "libcuda"):
        for suffix in ("so.1", "so." + T.DRIVER):
            t.remove(f"/usr/lib/x86_64-linux-gnu/{lib}.{suffix}")
    for n in ("nvidia0", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"):
        t.remove("/dev/" + n)


@scenario(errors={"hw.nouveau_bound", "driver.module_not_loaded"}, evidence=("update-initramfs",))
def nouveau_blacklisted_but_still_bound(t):
    T.nvidia_desktop(t)
    t.bind("0000:01:00.0", "nouveau")
    for m in ("nvidia", "nvidia_modeset", "nvidia_drm", "nvidia_uvm"):
        t.unload(m)
    t.module("nouveau")
    t.remove("/proc/driver/nvidia")
    t.file("/etc/modprobe.d/blacklist-nouveau.conf", "blacklist nouveau\noptions nouveau modeset=0\n")


@scenario(errors={"hw.gpu_no_driver"}, absent={"driver.module_not_loaded"})
def gpu_without_any_driver(t):
    T.no_gpu_vm(t)
    t.pci("0000:01:00.0", 0x10de, 0x2684, 0x030000)


@scenario(errors={"hw.vfio_bound"})
def gpu_bound_to_vfio(t):
    T.no_gpu_vm(t)
    t.pci("0000:01:00.0", 0x10de, 0x2330, 0x030200, driver="vfio-pci")
    t.module("vfio_pci")


@scenario(errors=set(), also={"hw.vfio_bound", "hw.pcie_width_degraded"})
def one_of_two_gpus_for_a_vm_and_a_narrow_link(t):
    T.nvidia_server(t)
    t.bind(T.H100[1][0], "vfio-pci")
    t.pci(T.H100[0][0], 0x10de, 0x2330, 0x030200, driver="nvidia", width=(8, 16))


@scenario(also={"hw.no_compute_gpu"}, absent={"hw.no_gpu"})
def intel_igpu_only(t):
    T.base(t)
    t.pci("0000:00:02.0", 0x8086, 0xa780, 0x030000, driver="i915")


# ---------------------------------------------------------------- kernel driver

@scenario(errors={"hw.gpu_no_driver", "driver.module_not_loaded"}, evidence=("sudo modprobe nvidia",))
def module_not_loaded(t):
    T.nvidia_desktop(t)
    t.unbind("0000:01:00.0")
    for m in ("nvidia", "nvidia_modeset", "nvidia_drm", "nvidia_uvm"):
        t.unload(m)
    t.remove("/proc/driver/nvidia")


@scenario(errors={"hw.gpu_no_driver", "driver.module_not_loaded"}, evidence=("Secure Boot is enabled", "mokutil"))
def module_rejected_by_secure_boot(t):
    module_not_loaded(t)
    t.file("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", b"\x06\x00\x00\x00\x01")


@scenario(errors={"hw.gpu_no_driver", "driver.module_not_loaded"}, evidence=("dkms autoinstall",))
def module_not_built_for_running_kernel(t):
    module_not_loaded(t)
    t.file(f"/lib/modules/{T.KERNEL}/modules.dep", "kernel/drivers/gpu/drm/nouveau/nouveau.ko:\n")


@scenario(errors={"driver.version_mismatch"}, evidence=("550.54.14", "550.90.07"))
def driver_upgraded_without_reboot(t):
    T.nvidia_server(t)
    for lib in ("libnvidia-ml", "libcuda"):
        t.remove(f"/usr/lib/x86_64-linux-gnu/{lib}.so.{T.DRIVER}")
        t.file(f"/usr/lib/x86_64-linux-gnu/{lib}.so.550.90.07", "\x7fELF")
        t.link(f"/usr/lib/x86_64-linux-gnu/{lib}.so.1", f"{lib}.so.550.90.07")


@scenario(errors={"driver.uvm_missing"})
def uvm_not_loaded(t):
    T.nvidia_server(t)
    t.unload("nvidia_uvm")
    t.remove("/dev/nvidia-uvm")
    t.remove("/dev/nvidia-uvm-tools")


@scenario(errors=set(), also={"driver.uvm_missing"})
def uvm_not_loaded_yet_but_nvidia_modprobe_will(t):
    uvm_not_loaded(t)
    t.file("/usr/bin/nvidia-modprobe", "\x7fELF")
    t.stat_lines.append("/usr/bin/nvidia-modprobe f 4755 0 0")


@scenario(errors={"driver.device_nodes_missing"})
def device_nodes_missing(t):
    T.nvidia_server(t)
    t.remove("/dev/nvidia1")
    t.remove("/dev/nvidiactl")


@scenario(errors={"driver.device_permission"}, evidence=("usermod -a -G video ana",))
def device_nodes_not_accessible(t):
    T.nvidia_server(t)
    t.stat_lines = [l for l in t.stat_lines if not l.startswith("/dev/nvidia")]
    for n in ("nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"):
        t.dev("/dev/" + n, mode=0o660, gid=44)


@scenario(errors={"driver.gpu_excluded"})
def gpu_excluded_by_driver(t):
    T.nvidia_server(t)
    p = f"/proc/driver/nvidia/gpus/{T.H100[1][0]}/information"
    with open(t.path(p)) as f:
        text = f.read()
    t.file(p, text.replace("GPU Excluded:\t No", "GPU Excluded:\t Yes"))


# ---------------------------------------------------------------- containers

@scenario(errors={"container.no_gpu"})
def container_started_without_gpu(t):
    T.container_without_gpu(t)


@scenario(errors={"container.no_gpu"}, evidence=("NVIDIA runtime hook did not run",))
def cuda_image_without_nvidia_runtime(t):
    T.container_without_gpu(t)
    t.env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_REQUIRE_CUDA": "cuda>=12.4", "CUDA_VERSION": "12.4.1"})


@scenario(errors={"container.visible_devices_void", "container.no_gpu"})
def container_visible_devices_void(t):
    T.container_without_gpu(t)
    t.env["NVIDIA_VISIBLE_DEVICES"] = "void"


@scenario(errors={"container.visible_devices_void"}, absent={"container.no_gpu"})
def container_visible_devices_none(t):
    T.container_without_gpu(t)
    T.install_nvidia_libs(t)
    t.env["NVIDIA_VISIBLE_DEVICES"] = "none"


@scenario(errors={"container.no_compute_capability"})
def container_without_compute_capability(t):
    T.container_with_gpu(t)
    for suffix in ("so.1", "so." + T.DRIVER):
        t.remove(f"/usr/lib/x86_64-linux-gnu/libcuda.{suffix}")
    t.env["NVIDIA_DRIVER_CAPABILITIES"] = "utility"


@scenario(errors={"container.no_compute_capability"})
def kubernetes_pod_without_compute_capability(t):
    container_without_compute_capability(t)
    t.remove("/.dockerenv")
    t.file("/proc/self/cgroup", "0::/kubepods/besteffort/pod7f3a/cri-containerd-1b2c\n")
    t.env["KUBERNETES_SERVICE_HOST"] = "10.96.0.1"


# ---------------------------------------------------------------- WSL

@scenario(errors={"wsl.no_gpu_support"})
def wsl2_without_dxg(t):
    T.wsl(t)
    t.remove("/dev/dxg")
    t.stat_lines = [l for l in t.stat_lines if not l.startswith("/dev/dxg")]


@scenario(errors={"wsl.linux_driver_installed"})
def wsl2_with_linux_driver_installed(t):
    T.wsl(t)
    T.install_nvidia_libs(t, "550.54.14")


# ---------------------------------------------------------------- environment variables

@scenario(errors={"env.cuda_visible_devices_hidden"})
def cuda_visible_devices_empty(t):
    T.nvidia_server(t)
    t.env["CUDA_VISIBLE_DEVICES"] = ""


@scenario(errors={"env.cuda_visible_devices_hidden"})
def cuda_visible_devices_minus_one(t):
    T.nvidia_desktop(t)
    t.env["CUDA_VISIBLE_DEVICES"] = "-1"


@scenario(errors={"env.cuda_visible_devices_hidden"})
def cuda_visible_devices_nodevfiles(t):
    T.nvidia_desktop(t)
    t.env["CUDA_VISIBLE_DEVICES"] = "NoDevFiles"


@scenario(errors={"env.cuda_visible_devices_invalid"}, evidence=("only 1 GPU",))
def cuda_visible_devices_index_past_count(t):
    T.nvidia_desktop(t)
    t.env["CUDA_VISIBLE_DEVICES"] = "2"


@scenario(errors={"env.cuda_visible_devices_invalid"})
def cuda_visible_devices_unknown_uuid(t):
    T.nvidia_server(t)
    t.env["CUDA_VISIBLE_DEVICES"] = "GPU-deadbeef-0000-0000-0000-000000000000"


@scenario(errors=set(), also={"env.cuda_visible_devices_invalid"})
def cuda_visible_devices_list_cut_short(t):
    T.nvidia_server(t)
    t.env["CUDA_VISIBLE_DEVICES"] = "1,7,0"


@scenario(healthy=True)
def cuda_visible_devices_uuid_prefix(t):
    T.nvidia_server(t)
    t.env["CUDA_VISIBLE_DEVICES"] = "GPU-1b3c5d7e"


@scenario(errors={"env.stub_libcuda_on_path"})
def stub_libcuda_on_ld_library_path(t):
    T.nvidia_server(t)
    stubs = "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs"
    t.file(f"{stubs}/libcuda.so", "\x7fELF")
    t.link(f"{stubs}/libcuda.so.1", "libcuda.so")
    t.link("/usr/local/cuda", "cuda-12.4")
    t.env["LD_LIBRARY_PATH"] = "/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64"
    t.link("/usr/local/cuda-12.4/lib64", "targets/x86_64-linux/lib")


@scenario(errors=set(), also={"env.stub_libcuda_on_path"})
def stub_dir_on_path_without_soname_link(t):
    T.nvidia_server(t)
    t.file("/usr/local/cuda/lib64/stubs/libcuda.so", "\x7fELF")
    t.env["LD_LIBRARY_PATH"] = "/usr/local/cuda/lib64/stubs"


@scenario(errors=set(), also={"env.framework_forced_cpu"})
def jax_platforms_cpu(t):
    T.nvidia_desktop(t)
    t.env["JAX_PLATFORMS"] = "cpu"


@scenario(errors=set(), also={"env.cuda_debug_vars"})
def cuda_launch_blocking_left_on(t):
    T.nvidia_server(t)
    t.env["CUDA_LAUNCH_BLOCKING"] = "1"


# ---------------------------------------------------------------- AMD and other accelerators

@scenario(errors={"amd.no_kfd"})
def amd_without_kfd(t):
    T.amd_workstation(t)
    t.remove("/dev/kfd")
    t.stat_lines = [l for l in t.stat_lines if not l.startswith("/dev/kfd")]


@scenario(errors={"amd.no_render_access"}, evidence=("usermod -a -G render ana",))
def amd_user_not_in_render_group(t):
    T.amd_workstation(t)
    t.identity(groups=(1000, 44))


@scenario(errors=set(), also={"amd.gfx_override"}, evidence=("gfx1100",))
def amd_gfx_override(t):
    T.amd_workstation(t)
    t.env["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0"


@scenario(also={"accel.other_present"}, absent={"hw.no_gpu"}, evidence=("jax[tpu]",))
def google_tpu_vm(t):
    T.no_gpu_vm(t)
    t.pci("0000:00:04.0", 0x1ae0, 0x005e, 0xff0000, driver="gasket")
    for i in range(4):
        t.dev(f"/dev/accel{i}", mode=0o660)


@scenario(also={"accel.other_present"}, absent={"hw.no_gpu"}, evidence=("torch-neuronx",))
def aws_neuron(t):
    T.no_gpu_vm(t)
    t.dev("/dev/neuron0")


@scenario(also={"accel.other_present"}, absent={"hw.no_gpu"}, evidence=("torch_npu",))
def huawei_ascend(t):
    T.no_gpu_vm(t)
    t.dev("/dev/davinci0")
    t.dev("/dev/davinci_manager")


@scenario(also={"accel.other_present", "hw.no_compute_gpu"}, evidence=("OpenVINO",))
def intel_npu_laptop(t):
    T.base(t)
    t.pci("0000:00:02.0", 0x8086, 0x7d55, 0x030000, driver="i915")
    t.pci("0000:00:0b.0", 0x8086, 0x7d1d, 0x120000, driver="intel_vpu")
    t.module("intel_vpu")
    t.dev("/dev/accel/accel0", mode=0o660, gid=105)


# ---------------------------------------------------------------- bad input

@scenario(also={"probe.unreadable"}, absent={"hw.no_gpu"})
def empty_tree(t):
    pass


@scenario(errors=set(), also={"probe.unreadable"}, absent={"hw.no_gpu"})
def garbage_everywhere(t):
    T.no_gpu_vm(t)
    t.file("/sys/devices/pci0000:00/0000:00:01.0/vendor", b"\xff\xfe\x00garbage")
    t.file("/sys/devices/pci0000:00/0000:00:01.0/class", b"\x00\x01\x02")
    t.file("/sys/devices/pci0000:00/0000:00:00.0/class", "0x06")  # truncated
    t.file("/sys/devices/pci0000:00/0000:00:00.0/vendor", "")
    t.file("/sys/devices/pci0000:00/0000:00:03.0/vendor", "0xzzzz\n")
    t.file("/proc/driver/nvidia/version", b"\x00\xff" * 100)
    t.file("/etc/group", b"\xc3\x28:x:\xff\n" * 10)
    t.file("/proc/self/status", b"Uid:\t\xff\xff\nGroups:\tx y z\n")


@scenario(also={"probe.unreadable"}, absent={"hw.no_gpu"})
def truncated_identity_and_no_dev(t):
    T.no_gpu_vm(t)
    t.file("/proc/self/status", "Name:\tgpudoctor\nUid:\t10")
    t.remove("/dev")


@scenario(errors={"hw.gpu_no_driver"})
def huge_files_and_invalid_utf8(t):
    T.no_gpu_vm(t)
    t.pci("0000:01:00.0", 0x10de, 0x2684, 0x030000)
    for p in ("/proc/cmdline", "/proc/modules", "/proc/self/cgroup", "/etc/passwd"):
        t.file(p, "")
    t.finish()
    for p in ("/proc/cmdline", "/proc/self/cgroup", "/etc/passwd"):
        os.truncate(t.path(p), 1 << 30)  # 1 GiB, sparse: a bounded prefix must be read
    t.env["CUDA_VISIBLE_DEVICES"] = "0"
    t.env["LD_LIBRARY_PATH"] = "/opt/\xe9\udcff"
    t.modules = []


@scenario(errors=set(), also={"probe.unreadable"}, absent={"hw.no_gpu", "driver.module_not_loaded"},
          evidence=("Too many levels of symbolic links",))
def symlink_loops(t):
    T.no_gpu_vm(t)
    t.pci("0000:01:00.0", 0x10de, 0x2684, 0x030000)
    t.link("/sys/devices/pci0000:00/0000:01:00.0/driver", "driver")  # a link to itself
    t.link("/sys/bus/pci/devices/0000:09:00.0", "0000:09:00.1")
    t.link("/sys/bus/pci/devices/0000:09:00.1", "0000:09:00.0")
    t.link("/proc/driver/nvidia/version", "/proc/driver/nvidia/version")
    t.link("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1")


@scenario(also={"probe.unreadable"}, absent={"hw.no_gpu"})
def pci_listing_is_a_fifo_and_devices_unreadable(t):
    T.no_gpu_vm(t)
    t.remove("/sys/bus/pci/devices")
    os.mkfifo(t.path("/sys/bus/pci/devices"))


# ---------------------------------------------------------------- runner

def run_scenario(sc, gpudoctor, work):
    root = os.path.join(work, sc["name"])
    t = T.Tree(root)
    sc["build"](t)
    if not (sc["name"] == "huge_files_and_invalid_utf8"):
        t.finish()
    else:
        environ = b"".join(f"{k}={v}".encode("utf-8", "surrogateescape") + b"\0" for k, v in t.env.items())
        t.file("/proc/self/environ", environ)
        t.file("/.gpudoctor/stat", "\n".join(t.stat_lines) + "\n")
    problems = []
    try:
        p = subprocess.run([gpudoctor, "check", "--root", root, "--json"], capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        return ["timed out (a hang)"]
    if p.returncode not in (0, 1):
        return [f"exit {p.returncode}: {p.stderr.decode(errors='replace')[:2000]}"]
    try:
        report = json.loads(p.stdout)
    except ValueError as e:
        return [f"invalid JSON: {e}"]
    findings = report["findings"]
    errors = {f["id"] for f in findings if f["severity"] == "error"}
    ids = {f["id"] for f in findings}
    if errors != sc["errors"]:
        problems.append(f"errors {sorted(errors)} != expected {sorted(sc['errors'])}")
    missing = sc["also"] - ids
    if missing:
        problems.append(f"missing {sorted(missing)}")
    unwanted = sc["absent"] & ids
    if unwanted:
        problems.append(f"unexpected {sorted(unwanted)}")
    if sc["healthy"]:
        env_warnings = {f["id"] for f in findings if f["severity"] == "warning" and f["layer"] == "environment"}
        if env_warnings:
            problems.append(f"healthy machine has warnings {sorted(env_warnings)}")
    want_exit = 1 if sc["errors"] else 0
    if p.returncode != want_exit:
        problems.append(f"exit {p.returncode}, expected {want_exit}")
    text = json.dumps(findings)
    for needle in sc["evidence"]:
        if needle not in text:
            problems.append(f"no finding mentions {needle!r}")
    # The text renderer must cope with the same tree.
    q = subprocess.run([gpudoctor, "check", "--root", root, "--color", "never"], capture_output=True, timeout=20)
    if q.returncode != p.returncode:
        problems.append(f"text mode exit {q.returncode} != json mode exit {p.returncode}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        for sc in SCENARIOS:
            print(sc["name"])
        return 0
    os.makedirs(args.work, exist_ok=True)
    failed = 0
    for sc in SCENARIOS:
        if args.only and sc["name"] != args.only:
            continue
        problems = run_scenario(sc, args.gpudoctor, args.work)
        status = "ok" if not problems else "FAIL"
        print(f"{status:4} {sc['name']}")
        for pr in problems:
            print(f"       {pr}")
        failed += bool(problems)
    total = len([s for s in SCENARIOS if not args.only or s["name"] == args.only])
    print(f"{total - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
