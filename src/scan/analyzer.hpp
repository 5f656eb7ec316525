// The analysis of one file: parses the SourceText, runs the file-wide pass (file_facts.hpp) and
// then one dataflow pass in program order that follows what each name holds (symbols.hpp) and
// reports under the rules of rules.hpp. Suppression comments in the source (suppression.hpp) are
// applied here; configuration (config.hpp) is applied by the caller.
// Thread-safety: pure function of its input; call it from any number of threads.
#pragma once

#include <string>
#include <vector>

#include <facts/finding.hpp>
#include <scan/source.hpp>

namespace gpudoctor::scan {

struct FileAnalysis {
  std::vector<facts::Finding> findings;  // in document order
  std::vector<std::string> notes;        // syntax errors, unreadable parts
};

FileAnalysis analyze(const SourceText& source);

}  // namespace gpudoctor::scan
