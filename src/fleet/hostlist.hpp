// Slurm hostlist expressions: "gpu[001-004,007],login1". compress() writes a set of node names the
// way Slurm prints them (sinfo, scontrol show hostlist), so a fleet report can be pasted into
// `srun -w` or `scontrol update NodeName=`; expand() reads one (the --nodes option).
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <sys/error.hpp>

namespace gpudoctor::fleet {

// Names sorted and joined into ranges: a numeric tail that counts up by one joins a range when its
// width matches (zero-padded "gpu007") or neither is zero-padded ("node9", "node10").
std::string compress_hostlist(std::vector<std::string> names);

// "gpu[001-003],login1" -> gpu001 gpu002 gpu003 login1. Several bracket groups in one name expand
// to their product. More than `limit` names, unbalanced brackets or a descending range is an Error.
sys::Expected<std::vector<std::string>> expand_hostlist(std::string_view expr, std::size_t limit = 1u << 20);

}  // namespace gpudoctor::fleet
