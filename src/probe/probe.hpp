// Probes gather facts and nothing else: they are the only code that touches the OS, always through
// a sys::FileSystem (so `--root DIR` replays a captured machine), and they never judge. A read that
// fails becomes a Known<T>::unknown with the reason, never an exception.
#pragma once

#include <facts/facts.hpp>
#include <sys/file_system.hpp>

namespace gpudoctor::probe {

facts::PciFacts probe_pci(const sys::FileSystem& fs);
facts::KernelFacts probe_kernel(const sys::FileSystem& fs);
facts::DevFacts probe_dev(const sys::FileSystem& fs);
// `node_gids`: the groups of the device nodes, whose names are looked up in /etc/group.
facts::IdentityFacts probe_identity(const sys::FileSystem& fs, const facts::DevFacts& dev);
facts::ContainerFacts probe_container(const sys::FileSystem& fs, const facts::Known<std::map<std::string, std::string>>& env);
facts::WslFacts probe_wsl(const sys::FileSystem& fs, const facts::KernelFacts& kernel);
facts::LibraryFacts probe_libraries(const sys::FileSystem& fs,
                                    const facts::Known<std::map<std::string, std::string>>& env);
facts::AmdFacts probe_amd(const sys::FileSystem& fs);
facts::Known<std::map<std::string, std::string>> probe_env(const sys::FileSystem& fs);
facts::MetaFacts probe_meta(const sys::FileSystem& fs);

facts::EnvironmentFacts probe_environment(const sys::FileSystem& fs);

// Everything that reads files only (no library is loaded): the facts `check --root` works from.
facts::Facts probe_files(const sys::FileSystem& fs);

// Whether an environment variable is one gpudoctor records (and `capture` keeps): on the
// allowlist, and its name does not look like a credential's.
bool env_var_allowed(std::string_view name);
// The same, and its value does not look like a credential either.
bool env_entry_kept(std::string_view name, std::string_view value);

}  // namespace gpudoctor::probe
