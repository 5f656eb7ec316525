// libFuzzer target for what `fleet` reads from other machines: a report stream (JSON values,
// pdsh/srun labels), each report's SAX reading, and a Slurm hostlist expression. None may crash,
// hang or allocate without bound, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include <fleet/collect.hpp>
#include <fleet/hostlist.hpp>
#include <fleet/join.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpudoctor::fleet::FleetInput in;
  gpudoctor::fleet::read_report_stream(text, "fuzz", in);
  gpudoctor::fleet::join_fleet(std::move(in));
  // The same bytes as standard input, read piece by piece in small chunks (many piece boundaries).
  std::istringstream stream{std::string(text)};
  gpudoctor::fleet::FleetInput piecewise;
  gpudoctor::fleet::read_report_input(stream, "stdin", piecewise, 97);
  gpudoctor::fleet::join_fleet(std::move(piecewise));
  auto names = gpudoctor::fleet::expand_hostlist(text.substr(0, 256), 4096);
  if (names) gpudoctor::fleet::compress_hostlist(*names);
  return 0;
}
