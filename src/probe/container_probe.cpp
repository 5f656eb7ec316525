// Container and WSL markers. Containers: /.dockerenv (Docker), /run/.containerenv (Podman), the
// `container` variable (systemd's convention), KUBERNETES_SERVICE_HOST, and the cgroup path; the
// root file system's type is kept as corroboration. WSL: the kernel's own version string.
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <array>

namespace gpudoctor::probe {
namespace {

struct CgroupHint {
  std::string_view needle;
  std::string_view runtime;
};
constexpr std::array<CgroupHint, 6> k_cgroup_hints = {{{"kubepods", "kubernetes"},
                                                       {"docker", "docker"},
                                                       {"libpod", "podman"},
                                                       {"containerd", "containerd"},
                                                       {"cri-containerd", "containerd"},
                                                       {"lxc", "lxc"}}};

}  // namespace

facts::ContainerFacts probe_container(const sys::FileSystem& fs,
                                      const facts::Known<std::map<std::string, std::string>>& env) {
  facts::ContainerFacts c;
  c.dockerenv = fs.exists("/.dockerenv");
  c.containerenv = fs.exists("/run/.containerenv");
  std::string container_var;
  if (env) {
    c.kubernetes = env->count("KUBERNETES_SERVICE_HOST") > 0;
    if (auto it = env->find("container"); it != env->end()) container_var = it->second;
  }
  if (auto cg = fs.read_text("/proc/self/cgroup", 256 * 1024)) {
    for (const auto& hint : k_cgroup_hints) {
      if (util::contains(*cg, hint.needle)) {
        c.cgroup_hint = std::string(hint.needle);
        break;
      }
    }
  }
  if (c.cgroup_hint == "kubepods") c.kubernetes = true;
  c.root_fs_type = facts::Known<std::string>::unknown("no mount at / in /proc/self/mountinfo");
  if (auto mi = fs.read_text("/proc/self/mountinfo", 4 << 20)) {
    for (auto line : util::lines(*mi)) {
      // "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw" (proc(5)).
      auto f = util::split_ws(line);
      if (f.size() < 5 || f[4] != "/") continue;
      for (std::size_t i = 5; i + 1 < f.size(); ++i) {
        if (f[i] == "-") {
          c.root_fs_type = std::string(f[i + 1]);
          break;
        }
      }
    }
  } else {
    c.root_fs_type = facts::Known<std::string>::unknown(mi.error().message);
  }
  if (c.kubernetes) c.runtime = "kubernetes";
  else if (c.containerenv || container_var == "podman") c.runtime = "podman";
  else if (c.dockerenv || container_var == "docker") c.runtime = "docker";
  else if (!c.cgroup_hint.empty()) {
    for (const auto& hint : k_cgroup_hints) {
      if (hint.needle == c.cgroup_hint) c.runtime = std::string(hint.runtime);
    }
  } else if (!container_var.empty()) {
    c.runtime = util::sanitize_utf8(container_var);
  }
  c.in_container = !c.runtime.empty();
  return c;
}

facts::WslFacts probe_wsl(const sys::FileSystem& fs, const facts::KernelFacts& kernel) {
  facts::WslFacts w;
  // WSL1: "...-Microsoft", WSL2: "...-microsoft-standard-WSL2" (xmake-io/xmake#4686).
  std::string text = kernel.proc_version.value_or("") + " " + kernel.release.value_or("");
  w.is_wsl = util::contains_icase(text, "microsoft");
  w.is_wsl2 = w.is_wsl && (util::contains(text, "WSL2") || util::contains(text, "microsoft-standard"));
  w.dxg = facts::Known<bool>(fs.exists("/dev/dxg"));
  w.wsl_lib_dir = fs.exists("/usr/lib/wsl/lib");
  return w;
}

}  // namespace gpudoctor::probe
