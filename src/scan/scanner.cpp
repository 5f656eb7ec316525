#include <scan/scanner.hpp>

#include <atomic>
#include <thread>

#include <scan/analyzer.hpp>
#include <scan/source.hpp>

namespace gpudoctor::scan {
namespace {

struct FileOutcome {
  FileAnalysis analysis;
  std::uint64_t bytes = 0;
  bool analysed = false;
};

FileOutcome scan_one(const ScanInput& input, const ScanConfig& config, const ProjectIndex& project) {
  FileOutcome out;
  auto src = load_source(input.path, input.display, config.max_file_bytes);
  if (!src) {
    out.analysis.notes.push_back(src.error().message);
    return out;
  }
  out.bytes = src->text.size();
  out.analysed = true;
  out.analysis = analyze(*src, &project);
  out.analysis.notes.insert(out.analysis.notes.begin(), src->notes.begin(), src->notes.end());
  std::vector<facts::Finding> kept;
  for (auto& f : out.analysis.findings) {
    if (!config.enabled(f.id)) continue;
    if (auto it = config.severity.find(f.id); it != config.severity.end()) f.severity = it->second;
    kept.push_back(std::move(f));
  }
  out.analysis.findings = std::move(kept);
  return out;
}

}  // namespace

ScanResult scan_files(const std::vector<ScanInput>& files, const ScanConfig& config, unsigned jobs) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(files.size(), 1)));
  // The classes every Python file defines, first: a model defined in one file and trained in
  // another is known as a model there. Class headers only, no parse.
  ProjectIndex project;
  for (const auto& f : files) {
    if (f.path.size() < 3 || f.path.compare(f.path.size() - 3, 3, ".py") != 0) continue;
    if (auto src = load_source(f.path, f.display, config.max_file_bytes)) project.add_source(src->text);
  }
  project.finish();
  std::vector<FileOutcome> outcomes(files.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) outcomes[i] = scan_one(files[i], config, project);
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < jobs; ++t) pool.emplace_back(worker);
    worker();
  }
  ScanResult result;
  for (auto& o : outcomes) {
    result.bytes += o.bytes;
    result.files += o.analysed ? 1 : 0;
    for (auto& f : o.analysis.findings) result.findings.push_back(std::move(f));
    for (auto& n : o.analysis.notes) result.notes.push_back(std::move(n));
  }
  return result;
}

}  // namespace gpudoctor::scan
