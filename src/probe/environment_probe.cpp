#include <probe/driver/driver_probe.hpp>
#include <probe/probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

namespace gpudoctor::probe {

facts::MetaFacts probe_meta(const sys::FileSystem& fs) {
  facts::MetaFacts m;
  m.root = fs.root();
  auto host = fs.read_attr("/proc/sys/kernel/hostname");
  m.hostname = host ? facts::Known<std::string>(util::sanitize_utf8(*host))
                    : facts::Known<std::string>::unknown(host.error().message);
  m.os_pretty_name = facts::Known<std::string>::unknown("no PRETTY_NAME in os-release");
  for (auto path : {"/etc/os-release", "/usr/lib/os-release"}) {
    auto text = fs.read_text(path, 64 * 1024);
    if (!text) continue;
    for (auto line : util::lines(*text)) {
      if (!line.starts_with("PRETTY_NAME=")) continue;
      auto v = util::trim(line.substr(12));
      if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
      m.os_pretty_name = util::sanitize_utf8(v);
    }
    break;
  }
  return m;
}

facts::EnvironmentFacts probe_environment(const sys::FileSystem& fs) {
  facts::EnvironmentFacts e;
  e.env = probe_env(fs);
  e.pci = probe_pci(fs);
  e.kernel = probe_kernel(fs);
  e.dev = probe_dev(fs);
  e.identity = probe_identity(fs, e.dev);
  e.container = probe_container(fs, e.env);
  e.wsl = probe_wsl(fs, e.kernel);
  e.libraries = probe_libraries(fs, e.env);
  e.amd = probe_amd(fs);
  return e;
}

facts::Facts probe_files(const sys::FileSystem& fs) {
  facts::Facts f;
  f.meta = probe_meta(fs);
  f.environment = probe_environment(fs);
  // The driver's answers are not files; a captured tree carries them in /.gpudoctor/driver.json.
  if (!fs.is_live()) f.driver = read_recorded_driver(fs);
  return f;
}

}  // namespace gpudoctor::probe
