// The kernel side: release, loaded GPU modules and their versions, the NVIDIA driver's own /proc
// files, whether an nvidia.ko exists for the running kernel, Secure Boot, and nouveau blacklists.
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <algorithm>
#include <array>

namespace gpudoctor::probe {
namespace {

// Modules whose presence or absence a check reads. /proc/modules lists module names with '_'.
constexpr std::array<std::string_view, 18> k_gpu_modules = {
    "nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia_peermem", "nouveau",
    "amdgpu", "radeon", "i915", "xe", "vfio_pci", "intel_vpu", "habanalabs", "neuron",
    "drm_kms_helper", "nvidiafb", "rivafb", "gasket"};

// EFI global variable GUID (UEFI spec, section 3.3 "Globally Defined Variables").
constexpr std::string_view k_secure_boot_var =
    "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";

constexpr std::array<std::string_view, 4> k_modprobe_dirs = {"/etc/modprobe.d", "/run/modprobe.d",
                                                             "/lib/modprobe.d", "/usr/lib/modprobe.d"};

bool is_gpu_module(std::string_view name) {
  return std::find(k_gpu_modules.begin(), k_gpu_modules.end(), name) != k_gpu_modules.end();
}

facts::Known<std::string> known_text(sys::Expected<std::string> e) {
  if (!e) return facts::Known<std::string>::unknown(e.error().message);
  return util::sanitize_utf8(util::trim(*e));
}

// A kernel built without loadable-module support has no /proc/modules; its drivers are built in and
// show up as /sys/module/NAME (those with parameters or a version do), so that listing stands in.
facts::Known<std::vector<facts::KernelModule>> probe_builtin_modules(const sys::FileSystem& fs,
                                                                     const sys::Error& why) {
  auto entries = fs.list_dir("/sys/module");
  if (!entries) return facts::Known<std::vector<facts::KernelModule>>::unknown(why.message);
  std::vector<facts::KernelModule> out;
  for (const auto& e : *entries) {
    if (!is_gpu_module(e.name)) continue;
    facts::KernelModule m;
    m.name = e.name;
    m.state = "builtin";
    m.version = known_text(fs.read_attr("/sys/module/" + m.name + "/version"));
    out.push_back(std::move(m));
  }
  return out;
}

facts::Known<std::vector<facts::KernelModule>> probe_modules(const sys::FileSystem& fs) {
  auto text = fs.read_text("/proc/modules", 4 << 20);
  if (!text && text.error().code == sys::ErrorCode::not_found) return probe_builtin_modules(fs, text.error());
  if (!text) return facts::Known<std::vector<facts::KernelModule>>::unknown(text.error().message);
  std::vector<facts::KernelModule> out;
  for (auto line : util::lines(*text)) {
    auto f = util::split_ws(line);
    if (f.size() < 5 || !is_gpu_module(f[0])) continue;
    facts::KernelModule m;
    m.name = std::string(f[0]);
    m.state = std::string(f[4]);
    m.version = known_text(fs.read_attr("/sys/module/" + m.name + "/version"));
    out.push_back(std::move(m));
  }
  return out;
}

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 ..." (proprietary) or
// "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  555.42.02  Release Build ..." (open).
void parse_nvidia_banner(std::string_view banner, facts::KernelFacts& k) {
  k.nvidia_flavor = util::contains(banner, "Open Kernel Module") ? facts::NvidiaModuleFlavor::open
                    : util::contains(banner, "Kernel Module")    ? facts::NvidiaModuleFlavor::proprietary
                                                                 : facts::NvidiaModuleFlavor::unknown;
  auto pos = banner.find("Kernel Module");
  if (pos == std::string_view::npos) return;
  for (auto tok : util::split_ws(banner.substr(pos))) {
    auto v = util::parse_version(tok);
    if (v && v->size() >= 2 && (*v)[0] >= 100) {
      k.nvidia_version = std::string(tok);
      return;
    }
  }
}

facts::Known<std::vector<facts::NvidiaProcGpu>> probe_nvidia_proc_gpus(const sys::FileSystem& fs) {
  auto entries = fs.list_dir("/proc/driver/nvidia/gpus");
  if (!entries) return facts::Known<std::vector<facts::NvidiaProcGpu>>::unknown(entries.error().message);
  std::vector<facts::NvidiaProcGpu> out;
  for (const auto& e : *entries) {
    facts::NvidiaProcGpu g;
    g.bus_location = util::sanitize_utf8(e.name);
    auto info = fs.read_text("/proc/driver/nvidia/gpus/" + e.name + "/information", 64 * 1024);
    if (info) {
      for (auto line : util::lines(*info)) {
        auto colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        auto key = util::trim(line.substr(0, colon));
        auto value = util::sanitize_utf8(util::trim(line.substr(colon + 1)));
        if (key == "Model") g.model = value;
        else if (key == "GPU UUID") g.uuid = value;
        else if (key == "Bus Location") g.bus_location = value;
        else if (key == "GPU Excluded") g.excluded = value == "Yes";
        else if (key == "Device Minor") {
          auto v = util::parse_int(value);
          if (v && *v >= 0 && *v < 4096) g.device_minor = static_cast<int>(*v);
        }
      }
    } else {
      g.device_minor = facts::Known<int>::unknown(info.error().message);
    }
    out.push_back(std::move(g));
  }
  return out;
}

// modules.dep lists "kernel/drivers/.../nvidia.ko.zst: dep ..." for every module depmod saw,
// DKMS builds (updates/dkms/) included.
facts::Known<bool> probe_nvidia_module_built(const sys::FileSystem& fs, const facts::Known<std::string>& release) {
  if (!release) return facts::Known<bool>::unknown("kernel release unknown");
  auto dep = fs.read_text("/lib/modules/" + *release + "/modules.dep", 32 << 20);
  if (!dep) return facts::Known<bool>::unknown(dep.error().message);
  for (auto line : util::lines(*dep)) {
    auto colon = line.find(':');
    std::string_view path = line.substr(0, colon);
    auto base = util::base_name(path);
    if (base == "nvidia.ko" || base.starts_with("nvidia.ko.")) return true;
  }
  return false;
}

facts::SecureBoot probe_secure_boot(const sys::FileSystem& fs) {
  if (!fs.exists("/sys/firmware/efi")) return facts::SecureBoot::not_efi;
  auto var = fs.read_file(k_secure_boot_var, 64);
  // efivarfs: 4 bytes of attributes, then the value byte.
  if (!var || var->content.size() < 5) return facts::SecureBoot::unknown;
  return var->content[4] == 1 ? facts::SecureBoot::enabled : facts::SecureBoot::disabled;
}

std::vector<std::string> probe_nouveau_blacklist(const sys::FileSystem& fs, const facts::Known<std::string>& cmdline) {
  std::vector<std::string> out;
  for (auto dir : k_modprobe_dirs) {
    auto entries = fs.list_dir(dir);
    if (!entries) continue;
    for (const auto& e : *entries) {
      if (!e.name.ends_with(".conf")) continue;
      std::string path = util::join_path(dir, e.name);
      auto text = fs.read_text(path, 256 * 1024);
      if (!text) continue;
      for (auto line : util::lines(*text)) {
        auto f = util::split_ws(util::trim(line));
        if (f.size() < 2 || f[0].starts_with("#")) continue;
        bool blacklists = (f[0] == "blacklist" && f[1] == "nouveau") ||
                          (f[0] == "options" && f[1] == "nouveau" && f.size() > 2 && f[2] == "modeset=0") ||
                          (f[0] == "install" && f[1] == "nouveau");
        if (blacklists) out.push_back(util::sanitize_utf8(path + ": " + std::string(util::trim(line))));
      }
    }
  }
  if (cmdline) {
    for (auto tok : util::split_ws(*cmdline)) {
      if ((tok.starts_with("modprobe.blacklist=") || tok.starts_with("rd.driver.blacklist=")) &&
          util::contains(tok, "nouveau")) {
        out.push_back("kernel command line: " + std::string(tok));
      } else if (tok == "nouveau.modeset=0") {
        out.push_back("kernel command line: " + std::string(tok));
      }
    }
  }
  return out;
}

}  // namespace

facts::KernelFacts probe_kernel(const sys::FileSystem& fs) {
  facts::KernelFacts k;
  k.release = known_text(fs.read_attr("/proc/sys/kernel/osrelease"));
  k.proc_version = known_text(fs.read_text("/proc/version", 4096));
  k.cmdline = known_text(fs.read_text("/proc/cmdline", 64 * 1024));
  k.modules = probe_modules(fs);
  auto banner = fs.read_attr("/proc/driver/nvidia/version");
  if (banner) {
    k.nvidia_version_banner = util::sanitize_utf8(*banner);
    parse_nvidia_banner(*banner, k);
  } else {
    k.nvidia_version_banner = facts::Known<std::string>::unknown(banner.error().message);
  }
  k.nvidia_gpus = probe_nvidia_proc_gpus(fs);
  k.nvidia_module_built = probe_nvidia_module_built(fs, k.release);
  k.secure_boot = probe_secure_boot(fs);
  k.nouveau_blacklist = probe_nouveau_blacklist(fs, k.cmdline);
  return k;
}

}  // namespace gpudoctor::probe
