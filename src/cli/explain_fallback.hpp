// What explain says when the text gave it no cause: never silence, never "all fine". A text in
// which nothing was recognised gets explain.unrecognised; a text whose dumps or messages were read
// but from which no check and no known message names a cause gets explain.no_cause_found. Both are
// info findings that say what was read and what to paste or run next, tailored to what the text
// lacks (a driver dump, a framework dump).
#pragma once

#include <span>
#include <string>
#include <vector>

#include <facts/facts.hpp>
#include <facts/finding.hpp>
#include <probe/text/report_reader.hpp>

namespace gpudoctor::cli {

std::span<const facts::FindingInfo> explain_fallback_infos();

// REQUIRES: no other finding was made for the text.
facts::Finding explain_fallback(const probe::text::ReportReader& reader, std::uint64_t lines, std::uint64_t bytes,
                                std::uint64_t matched_lines);

}  // namespace gpudoctor::cli
