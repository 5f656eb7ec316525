// The catalogue of every finding id gpudoctor can report (checks, code rules, log signatures, run
// verdicts) and the Markdown of docs/checks.md generated from it.
#pragma once

#include <string>
#include <vector>

#include <facts/finding.hpp>

namespace gpudoctor::cli {

std::vector<facts::FindingInfo> finding_catalog();
std::string checks_markdown();

}  // namespace gpudoctor::cli
