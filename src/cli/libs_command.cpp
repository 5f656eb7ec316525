// gpudoctor libs FILE [--json] [--root DIR] [--ld-library-path P]: what `ldd FILE` would print, from
// a model of ld.so (probe/loader) instead of running the file: each needed soname, the file it
// resolves to or "not found", and the rule that found it. Exit 1 when a soname does not resolve.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include <cli/command.hpp>
#include <cli/machine.hpp>
#include <probe/loader/resolver.hpp>
#include <probe/probe.hpp>
#include <util/text.hpp>

namespace gpudoctor::cli {
namespace {

struct LibsOptions {
  std::string file;
  std::string root = "/";
  bool json = false;
  std::optional<std::string> ld_library_path;
};

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ":") + s;
  return out;
}

// Direct dependencies in full; below them, grouped by the object that asked, only what is newly
// loaded or missing (everything deeper asks for libc.so.6 again: noise, and JSON has it all).
void print_text(const probe::loader::ElfInfo& root, const std::vector<facts::Resolution>& rs) {
  std::string dyn;
  if (root.has_rpath) dyn += ", RPATH " + join(root.rpath);
  if (root.has_runpath) dyn += ", RUNPATH " + join(root.runpath);
  // Sonames, RPATHs and paths come from the ELF file and the disk: printed through util::printable.
  using util::printable;
  std::cout << fmt::format("{} ({} {}{})\n", printable(root.path), probe::loader::class_name(root.elf_class),
                           probe::loader::machine_name(root.machine), printable(dyn));
  std::string group = root.path;
  for (const auto& r : rs) {
    if (r.depth > 1 && r.rule == facts::SearchRule::already_loaded) continue;
    if (r.requested_by != group) {
      group = r.requested_by;
      std::cout << fmt::format("{} needs:\n", printable(group));
    }
    if (r.found()) {
      std::cout << fmt::format("  {} => {} [{}]\n", printable(r.soname), printable(r.path),
                               printable(r.rule == facts::SearchRule::already_loaded ? "already loaded" : r.rule_detail));
      continue;
    }
    std::cout << fmt::format("  {} => not found\n", printable(r.soname));
    for (const auto& t : r.tried) {
      std::cout << fmt::format("      tried {} ({}): {}\n", printable(t.path), facts::to_string(t.rule), printable(t.rejected));
    }
  }
}

int run_libs(const LibsOptions& o) {
  auto machine = Machine::open(o.root);
  if (!machine) {
    std::cerr << "gpudoctor libs: " << util::printable(machine.error().message) << '\n';
    return k_exit_usage;
  }
  std::string path = o.file;
  if (machine->is_live() && !path.empty() && path.front() != '/') {
    std::error_code ec;
    path = std::filesystem::absolute(path, ec).lexically_normal().string();
  }
  const sys::FileSystem& fs = machine->fs();
  auto root = probe::loader::read_elf_info(fs, path);
  if (!root) {
    std::cerr << "gpudoctor libs: " << util::printable(root.error().message) << '\n';
    return k_exit_usage;
  }
  std::string llp;
  if (o.ld_library_path) {
    llp = *o.ld_library_path;
  } else if (auto env = probe::probe_env(fs); env) {
    if (auto it = env->find("LD_LIBRARY_PATH"); it != env->end()) llp = it->second;
  }
  auto ctx = probe::loader::make_loader_context(fs, llp, root->machine);
  if (machine->is_live()) {
    std::error_code ec;
    ctx.cwd = std::filesystem::current_path(ec).string();
  }
  auto rs = probe::loader::resolve_needed_tree(fs, *root, ctx);
  std::size_t missing = 0;
  for (const auto& r : rs) missing += r.found() ? 0 : 1;
  if (o.json) {
    nlohmann::json j{{"file", root->path},
                     {"elf_class", probe::loader::class_name(root->elf_class)},
                     {"machine", probe::loader::machine_name(root->machine)},
                     {"soname", root->soname},
                     {"needed", root->needed},
                     {"rpath", root->rpath},
                     {"runpath", root->runpath},
                     {"ld_library_path", ctx.ld_library_path},
                     {"cache", ctx.cache ? "/etc/ld.so.cache" : ""},
                     {"default_dirs", ctx.default_dirs},
                     {"resolutions", rs},
                     {"unresolved", missing}};
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else {
    print_text(*root, rs);
  }
  return missing == 0 ? k_exit_ok : k_exit_findings;
}

}  // namespace

CommandRunner setup_libs(CLI::App& sub) {
  auto o = std::make_shared<LibsOptions>();
  sub.add_option("file", o->file, "The ELF executable or shared library (never executed)")->required();
  sub.add_option("--root", o->root, "Resolve inside a captured machine tree instead of this machine");
  sub.add_flag("--json", o->json, "JSON output");
  sub.add_option("--ld-library-path", o->ld_library_path,
                 "LD_LIBRARY_PATH to assume (default: the environment's, or the captured tree's)");
  return [o] { return run_libs(*o); };
}

}  // namespace gpudoctor::cli
