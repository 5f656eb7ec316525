// The scan of a set of files: each file read (bounded), parsed and analysed on a pool of threads
// (one per hardware thread unless told otherwise), results joined in the selection's order so the
// output is the same whatever the scheduling. Configuration (rules on/off, severities) is applied
// here.
#pragma once

#include <cstdint>
#include <vector>

#include <facts/finding.hpp>
#include <scan/config.hpp>
#include <scan/file_walk.hpp>

namespace gpudoctor::scan {

struct ScanResult {
  std::vector<facts::Finding> findings;  // by file, then by position
  std::vector<std::string> notes;
  std::uint64_t bytes = 0;  // source bytes analysed
  std::size_t files = 0;    // files analysed
};

// jobs == 0: std::thread::hardware_concurrency().
ScanResult scan_files(const std::vector<ScanInput>& files, const ScanConfig& config, unsigned jobs = 0);

}  // namespace gpudoctor::scan
