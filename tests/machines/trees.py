"""Builds machine trees laid out exactly as Linux lays them out (sysfs symlinks included), for
`gpudoctor check --root`. Each scenario starts from one of a few base machines and changes what the
scenario is about; replay.py runs gpudoctor on each and compares the findings.

Device nodes are plain files whose type, mode and owner go in /.gpudoctor/stat, the sidecar
gpudoctor's file system reads (git cannot carry device nodes or owners).
"""
import os
import shutil

KERNEL = "6.1.0-18-amd64"
DRIVER = "550.54.14"


class Tree:
    def __init__(self, root):
        self.root = root
        self.stat_lines = []
        self.modules = []
        self.env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/home/ana"}
        if os.path.exists(root):
            shutil.rmtree(root)
        os.makedirs(root)

    def path(self, p):
        return os.path.join(self.root, p.lstrip("/"))

    def file(self, p, content="", mode=None):
        full = self.path(p)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if os.path.islink(full):
            os.unlink(full)
        data = content.encode() if isinstance(content, str) else content
        with open(full, "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(full, mode)

    def mkdir(self, p):
        os.makedirs(self.path(p), exist_ok=True)

    def link(self, p, target):
        full = self.path(p)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if os.path.lexists(full):
            os.unlink(full)
        os.symlink(target, full)

    def remove(self, p):
        full = self.path(p)
        if os.path.islink(full) or os.path.isfile(full):
            os.unlink(full)
        elif os.path.isdir(full):
            shutil.rmtree(full)

    def dev(self, p, mode=0o666, uid=0, gid=0, kind="c"):
        self.file(p)
        self.stat_lines.append(f"{p} {kind} {mode:04o} {uid} {gid}")

    def pci(self, addr, vendor, device, klass, driver=None, width=(16, 16),
            speed=("16.0 GT/s PCIe", "16.0 GT/s PCIe"), numa=-1):
        # /sys/bus/pci/devices/ADDR -> ../../../devices/pci0000:00/ADDR, as the kernel links it.
        real = f"/sys/devices/pci0000:00/{addr}"
        for name, value in [("vendor", f"0x{vendor:04x}"), ("device", f"0x{device:04x}"),
                            ("class", f"0x{klass:06x}"), ("subsystem_vendor", f"0x{vendor:04x}"),
                            ("subsystem_device", "0x0000"), ("numa_node", str(numa)),
                            ("current_link_width", str(width[0])), ("max_link_width", str(width[1])),
                            ("current_link_speed", speed[0]), ("max_link_speed", speed[1])]:
            self.file(f"{real}/{name}", value + "\n")
        self.link(f"/sys/bus/pci/devices/{addr}", f"../../../devices/pci0000:00/{addr}")
        if driver:
            self.mkdir(f"/sys/bus/pci/drivers/{driver}")
            self.link(f"{real}/driver", f"../../../bus/pci/drivers/{driver}")

    def unbind(self, addr):
        self.remove(f"/sys/devices/pci0000:00/{addr}/driver")

    def bind(self, addr, driver):
        self.unbind(addr)
        self.mkdir(f"/sys/bus/pci/drivers/{driver}")
        self.link(f"/sys/devices/pci0000:00/{addr}/driver", f"../../../bus/pci/drivers/{driver}")

    def module(self, name, version=None):
        self.modules = [m for m in self.modules if m != name] + [name]
        self.mkdir(f"/sys/module/{name}")
        if version:
            self.file(f"/sys/module/{name}/version", version + "\n")

    def unload(self, name):
        self.modules = [m for m in self.modules if m != name]
        self.remove(f"/sys/module/{name}")

    def identity(self, uid=1000, gid=1000, groups=(1000,)):
        g = " ".join(str(x) for x in groups)
        self.file("/proc/self/status",
                  f"Name:\tgpudoctor\nUmask:\t0022\nState:\tR (running)\nUid:\t{uid}\t{uid}\t{uid}\t{uid}\n"
                  f"Gid:\t{gid}\t{gid}\t{gid}\t{gid}\nGroups:\t{g} \n")

    def finish(self):
        lines = []
        for i, m in enumerate(self.modules):
            lines.append(f"{m} {100000 + i} 0 - Live 0x0000000000000000 (POE)")
        self.file("/proc/modules", "\n".join(lines) + ("\n" if lines else ""))
        environ = b"".join(f"{k}={v}".encode() + b"\0" for k, v in self.env.items())
        self.file("/proc/self/environ", environ)
        self.file("/.gpudoctor/stat", "\n".join(self.stat_lines) + "\n")


# ---------------------------------------------------------------- base machines

def base(t, hostname="node"):
    t.file("/proc/sys/kernel/hostname", hostname + "\n")
    t.file("/proc/sys/kernel/osrelease", KERNEL + "\n")
    t.file("/proc/version", f"Linux version {KERNEL} (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)\n")
    t.file("/proc/cmdline", f"BOOT_IMAGE=/boot/vmlinuz-{KERNEL} root=UUID=0f3c ro quiet\n")
    t.file("/proc/self/cgroup", "0::/user.slice/user-1000.slice/session-3.scope\n")
    t.file("/proc/self/mountinfo", "23 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
                                   "24 23 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n")
    t.file("/etc/os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
    t.file("/etc/group", "root:x:0:\nvideo:x:44:\nrender:x:105:\nana:x:1000:\n")
    t.file("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\nana:x:1000:1000:Ana:/home/ana:/bin/bash\n")
    t.file("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
    t.file("/etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n")
    t.file(f"/lib/modules/{KERNEL}/modules.dep",
           f"kernel/drivers/gpu/drm/nouveau/nouveau.ko: kernel/drivers/gpu/drm/drm_kms_helper.ko\n"
           f"kernel/drivers/vfio/pci/vfio-pci.ko: kernel/drivers/vfio/vfio.ko\n")
    t.identity(groups=(1000,))
    t.pci("0000:00:00.0", 0x8086, 0x3e30, 0x060000)  # host bridge
    t.pci("0000:00:1f.3", 0x8086, 0xa348, 0x040300, driver="snd_hda_intel")
    t.mkdir("/dev")
    t.dev("/dev/null")


def install_nvidia_libs(t, version=DRIVER, where="/usr/lib/x86_64-linux-gnu"):
    for lib in ("libnvidia-ml", "libcuda"):
        t.file(f"{where}/{lib}.so.{version}", "\x7fELF")
        t.link(f"{where}/{lib}.so.1", f"{lib}.so.{version}")
    t.file(f"/lib/modules/{KERNEL}/modules.dep",
           f"updates/dkms/nvidia.ko.xz:\nupdates/dkms/nvidia-uvm.ko.xz: updates/dkms/nvidia.ko.xz\n"
           f"kernel/drivers/gpu/drm/nouveau/nouveau.ko:\n")


def nvidia_driver(t, gpus, version=DRIVER, flavor="open"):
    """gpus: list of (pci address, model, uuid)."""
    for m in ("nvidia", "nvidia_modeset", "nvidia_drm", "nvidia_uvm"):
        t.module(m, version if m in ("nvidia", "nvidia_uvm", "nvidia_modeset") else None)
    if flavor == "open":
        banner = f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {version}  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:35:01 UTC 2024"
    else:
        banner = f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {version}  Thu Feb 22 01:44:30 UTC 2024"
    t.file("/proc/driver/nvidia/version", banner + "\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")
    for minor, (addr, model, uuid) in enumerate(gpus):
        t.file(f"/proc/driver/nvidia/gpus/{addr}/information",
               f"Model: \t\t {model}\nIRQ:   \t\t 156\nGPU UUID: \t {uuid}\nVideo BIOS: \t 96.00.99.00.01\n"
               f"Bus Type: \t PCIe\nDMA Size: \t 52 bits\nDMA Mask: \t 0xfffffffffffff\nBus Location: \t {addr}\n"
               f"Device Minor: \t {minor}\nGPU Excluded:\t No\n")
        t.dev(f"/dev/nvidia{minor}")
    t.dev("/dev/nvidiactl")
    t.dev("/dev/nvidia-uvm")
    t.dev("/dev/nvidia-uvm-tools")
    t.dev("/dev/nvidia-modeset")
    install_nvidia_libs(t, version)


H100 = [("0000:17:00.0", "NVIDIA H100 80GB HBM3", "GPU-6a2f4b8e-0c1d-4e5f-9a8b-7c6d5e4f3a21"),
        ("0000:65:00.0", "NVIDIA H100 80GB HBM3", "GPU-1b3c5d7e-9f0a-4b2c-8d4e-6f8a0b2c4d6e")]


def nvidia_server(t):
    base(t, "gpu-node-07")
    t.pci("0000:02:00.0", 0x1a03, 0x2000, 0x030000, driver="ast")  # BMC VGA
    for addr, _, _ in H100:
        t.pci(addr, 0x10de, 0x2330, 0x030200, driver="nvidia", speed=("32.0 GT/s PCIe", "32.0 GT/s PCIe"))
    nvidia_driver(t, H100)
    t.file("/usr/bin/nvidia-smi", "\x7fELF", mode=0o755)


def nvidia_desktop(t):
    base(t, "ana-desktop")
    t.pci("0000:00:02.0", 0x8086, 0xa780, 0x030000, driver="i915")
    t.module("i915")
    t.pci("0000:01:00.0", 0x10de, 0x2684, 0x030000, driver="nvidia")
    t.pci("0000:01:00.1", 0x10de, 0x22ba, 0x040300, driver="snd_hda_intel")
    nvidia_driver(t, [("0000:01:00.0", "NVIDIA GeForce RTX 4090", "GPU-0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b")],
                  flavor="proprietary")
    t.dev("/dev/dri/card0", mode=0o660, gid=44)
    t.dev("/dev/dri/renderD128", mode=0o660, gid=105)


def amd_workstation(t):
    base(t, "ana-rocm")
    t.pci("0000:03:00.0", 0x1002, 0x744c, 0x030000, driver="amdgpu")
    t.module("amdgpu")
    t.file("/sys/module/amdgpu/initstate", "live\n")
    t.dev("/dev/kfd", mode=0o660, gid=105)
    t.dev("/dev/dri/card0", mode=0o660, gid=44)
    t.dev("/dev/dri/renderD128", mode=0o660, gid=105)
    t.identity(groups=(1000, 44, 105))
    t.file("/opt/rocm/.info/version", "6.1.0-82\n")
    t.file("/sys/class/kfd/kfd/topology/nodes/0/properties", "cpu_cores_count 16\nsimd_count 0\ngfx_target_version 0\nvendor_id 0\ndevice_id 0\n")
    t.file("/sys/class/kfd/kfd/topology/nodes/1/properties", "cpu_cores_count 0\nsimd_count 192\ngfx_target_version 110000\nvendor_id 4098\ndevice_id 29772\n")


def no_gpu_vm(t):
    base(t, "ci-vm")
    t.pci("0000:00:01.0", 0x1234, 0x1111, 0x030000, driver="bochs-drm")
    t.pci("0000:00:03.0", 0x1af4, 0x1000, 0x020000, driver="virtio-pci")


def in_docker(t):
    t.file("/.dockerenv", "")
    t.file("/proc/self/cgroup", "0::/\n")
    t.file("/proc/self/mountinfo", "612 540 0:52 / / rw,relatime master:300 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/X\n")
    t.identity(uid=0, gid=0, groups=())


def container_with_gpu(t):
    """The host is nvidia_server; a container started with --gpus all."""
    nvidia_server(t)
    in_docker(t)
    t.remove("/proc/driver/nvidia/gpus")  # the runtime masks the per-GPU proc entries it did not pass
    t.env.update({"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"})


def container_without_gpu(t):
    nvidia_server(t)
    in_docker(t)
    for p in ("/dev/nvidia0", "/dev/nvidia1", "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset"):
        t.remove(p)
    t.stat_lines = [l for l in t.stat_lines if not l.startswith("/dev/nvidia")]
    for lib in ("libnvidia-ml", "libcuda"):
        for suffix in ("so.1", "so." + DRIVER):
            t.remove(f"/usr/lib/x86_64-linux-gnu/{lib}.{suffix}")
    t.remove("/usr/bin/nvidia-smi")


def wsl(t):
    base(t, "ana-laptop")
    t.file("/proc/sys/kernel/osrelease", "5.15.153.1-microsoft-standard-WSL2\n")
    t.file("/proc/version", "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc (GCC) 11.2.0, GNU ld (GNU Binutils) 2.37) #1 SMP Fri Mar 29 23:14:13 UTC 2024\n")
    t.remove("/sys/bus/pci/devices/0000:00:00.0")
    t.remove("/sys/bus/pci/devices/0000:00:1f.3")
    t.mkdir("/sys/bus/pci/devices")
    t.dev("/dev/dxg")
    t.file("/usr/lib/wsl/lib/libcuda.so.1.1", "\x7fELF")
    t.link("/usr/lib/wsl/lib/libcuda.so.1", "libcuda.so.1.1")
    t.file("/usr/lib/wsl/lib/libnvidia-ml.so.1", "\x7fELF")
    t.file("/usr/lib/wsl/lib/libdxcore.so", "\x7fELF")
    t.file("/etc/ld.so.conf.d/ld.wsl.conf", "/usr/lib/wsl/lib\n")
