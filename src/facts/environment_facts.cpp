#include <facts/environment_facts.hpp>

#include <util/json_number.hpp>

namespace gpudoctor::facts {

NLOHMANN_JSON_SERIALIZE_ENUM(NvidiaModuleFlavor, {{NvidiaModuleFlavor::unknown, "unknown"},
                                                  {NvidiaModuleFlavor::proprietary, "proprietary"},
                                                  {NvidiaModuleFlavor::open, "open"}})
NLOHMANN_JSON_SERIALIZE_ENUM(SecureBoot, {{SecureBoot::unknown, "unknown"},
                                          {SecureBoot::enabled, "enabled"},
                                          {SecureBoot::disabled, "disabled"},
                                          {SecureBoot::not_efi, "not_efi"}})
NLOHMANN_JSON_SERIALIZE_ENUM(NodeType, {{NodeType::other, "other"},
                                        {NodeType::char_device, "char"},
                                        {NodeType::block_device, "block"},
                                        {NodeType::regular, "file"},
                                        {NodeType::directory, "dir"}})
NLOHMANN_JSON_SERIALIZE_ENUM(DriverLibKind, {{DriverLibKind::libcuda, "libcuda"},
                                             {DriverLibKind::libnvidia_ml, "libnvidia-ml"}})

GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(PciDevice, address, vendor_id, device_id, subsystem_vendor_id,
                                                subsystem_device_id, class_code, vendor_name, device_name, driver,
                                                current_link_speed, max_link_speed, current_link_width,
                                                max_link_width, numa_node)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(PciFacts, function_count, devices)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(KernelModule, name, state, version)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(NvidiaProcGpu, bus_location, model, uuid, device_minor, excluded)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(KernelFacts, release, proc_version, cmdline, modules,
                                                nvidia_version_banner, nvidia_version, nvidia_flavor, nvidia_gpus,
                                                nvidia_module_built, secure_boot, nouveau_blacklist)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(DeviceNode, path, type, mode, uid, gid)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(DevFacts, nodes)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(IdentityFacts, uid, gid, groups, group_ids, user_name)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(ContainerFacts, dockerenv, containerenv, kubernetes, cgroup_hint,
                                                root_fs_type, runtime, in_container, launch_command)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(WslFacts, is_wsl, is_wsl2, dxg, windows_build, wsl_lib_dir)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(DriverLibrary, path, kind, resolved_path, version, is_stub,
                                                in_wsl_dir, size)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(LibraryFacts, searched_dirs, libraries, nvidia_modprobe_setuid,
                                                cuda_toolkit_version)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(KfdNode, node, vendor_id, device_id, gfx_target_version)
GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(AmdFacts, rocm_version, amdgpu_initstate, kfd_gpus)

void to_json(nlohmann::json& j, const EnvironmentFacts& f) {
  j = nlohmann::json{{"pci", f.pci},           {"kernel", f.kernel},       {"dev", f.dev},
                     {"identity", f.identity}, {"container", f.container}, {"wsl", f.wsl},
                     {"libraries", f.libraries}, {"amd", f.amd},           {"env", f.env}};
}

void from_json(const nlohmann::json& j, EnvironmentFacts& f) {
  EnvironmentFacts d;
  f.pci = j.value("pci", d.pci);
  f.kernel = j.value("kernel", d.kernel);
  f.dev = j.value("dev", d.dev);
  f.identity = j.value("identity", d.identity);
  f.container = j.value("container", d.container);
  f.wsl = j.value("wsl", d.wsl);
  f.libraries = j.value("libraries", d.libraries);
  f.amd = j.value("amd", d.amd);
  f.env = j.value("env", d.env);
}

}  // namespace gpudoctor::facts
