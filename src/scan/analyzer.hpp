// The analysis of one file: parses the SourceText, runs the file-wide pass (file_facts.hpp) and
// then one dataflow pass in program order that follows what each name holds (symbols.hpp) and
// reports under the rules of rules.hpp. Suppression comments in the source (suppression.hpp) are
// applied here; configuration (config.hpp) is applied by the caller.
// Thread-safety: pure function of its input; call it from any number of threads.
#pragma once

#include <string>
#include <vector>

#include <facts/finding.hpp>
#include <scan/project_index.hpp>
#include <scan/source.hpp>

namespace gpudoctor::scan {

struct FileAnalysis {
  std::vector<facts::Finding> findings;  // in document order
  std::vector<std::string> notes;        // syntax errors, unreadable parts
};

// `project`: what the scan's other files define (an nn.Module imported from model.py); nullptr
// analyses the file alone.
FileAnalysis analyze(const SourceText& source, const ProjectIndex* project = nullptr);

}  // namespace gpudoctor::scan
