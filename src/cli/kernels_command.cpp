// gpudoctor kernels FILE [--json] [--cc X.Y] [--root DIR]: the cubin architectures and PTX versions in
// an ELF file's CUDA fatbinary (headers only), and with --cc whether a GPU of that compute capability
// can run them. Exit 1 when --cc is given and no kernel image fits.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <util/text.hpp>

#include <charconv>
#include <filesystem>
#include <iostream>

#include <checks/kernel_support.hpp>
#include <cli/command.hpp>
#include <cli/machine.hpp>
#include <probe/fatbin/fatbin_reader.hpp>

namespace gpudoctor::cli {
namespace {

struct KernelsOptions {
  std::string file;
  std::string root = "/";
  bool json = false;
  std::string cc;
};

// "8.9" -> {8, 9}; "12.0" -> {12, 0}.
std::optional<std::pair<int, int>> parse_cc(std::string_view s) {
  auto dot = s.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  int major = 0, minor = 0;
  auto a = std::from_chars(s.data(), s.data() + dot, major);
  auto b = std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor);
  if (a.ec != std::errc() || a.ptr != s.data() + dot || b.ec != std::errc() || b.ptr != s.data() + s.size()) return std::nullopt;
  if (major < 1 || major > 99 || minor < 0 || minor > 9) return std::nullopt;
  return std::pair{major, minor};
}

int run_kernels(const KernelsOptions& o) {
  std::optional<std::pair<int, int>> cc;
  if (!o.cc.empty()) {
    cc = parse_cc(o.cc);
    if (!cc) {
      std::cerr << "gpudoctor kernels: --cc wants a compute capability like 8.9, not '" << util::printable(o.cc) << "'\n";
      return k_exit_usage;
    }
  }
  auto machine = Machine::open(o.root);
  if (!machine) {
    std::cerr << "gpudoctor kernels: " << util::printable(machine.error().message) << '\n';
    return k_exit_usage;
  }
  std::string path = o.file;
  if (machine->is_live() && !path.empty() && path.front() != '/') {
    std::error_code ec;
    path = std::filesystem::absolute(path, ec).lexically_normal().string();
  }
  auto summary = probe::fatbin::read_fatbin(machine->fs(), path);
  if (!summary) {
    std::cerr << "gpudoctor kernels: " << util::printable(summary.error().message) << '\n';
    return k_exit_usage;
  }
  std::optional<checks::KernelSupport> support;
  if (cc) support = checks::predict_support(*summary, cc->first, cc->second);
  if (o.json) {
    nlohmann::json j = *summary;
    if (support) {
      j["support"] = {{"cc", o.cc}, {"kind", checks::to_string(support->kind)}, {"arch", support->arch}, {"reason", support->reason}};
    }
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else {
    std::size_t compressed = 0;
    for (const auto& e : summary->entries) compressed += e.compressed ? 1 : 0;
    if (summary->entries.empty()) {
      std::cout << fmt::format("{}: no CUDA fatbinary (no .nv_fatbin or __nv_relfatbin section)\n", util::printable(summary->path));
    } else {
      std::cout << fmt::format("{}: {} entries ({} compressed) in {} fatbin containers ({})\n", util::printable(summary->path),
                               summary->entries.size(), compressed, summary->containers, fmt::join(summary->sections, ", "));
      std::cout << fmt::format("cubin: {}\n", fmt::join(summary->cubin_names(), " "));
      std::cout << fmt::format("PTX:   {}\n", fmt::join(summary->ptx_names(), " "));
    }
    if (support) {
      const char* verdict = support->kind == checks::KernelSupportKind::native    ? "runs natively"
                            : support->kind == checks::KernelSupportKind::ptx_jit ? "runs via PTX JIT"
                                                                                  : "no kernel image";
      std::cout << fmt::format("compute capability {}: {}: {}\n", o.cc, verdict, support->reason);
    }
  }
  if (support && support->kind == checks::KernelSupportKind::no_kernel_image) return k_exit_findings;
  return k_exit_ok;
}

}  // namespace

CommandRunner setup_kernels(CLI::App& sub) {
  auto o = std::make_shared<KernelsOptions>();
  sub.add_option("file", o->file, "An ELF file with CUDA kernels (libtorch_cuda.so, an extension .so)")->required();
  sub.add_option("--root", o->root, "Read the file inside a captured machine tree");
  sub.add_flag("--json", o->json, "JSON output");
  sub.add_option("--cc", o->cc, "A GPU compute capability (8.9): can it run these kernels?");
  return [o] { return run_kernels(*o); };
}

}  // namespace gpudoctor::cli
