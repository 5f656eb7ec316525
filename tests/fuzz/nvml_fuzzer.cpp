// libFuzzer target for the NVML sampling helper's line protocol: each line the helper could print
// (it runs a vendor library, so anything) read as JSON and, when it is an object, as a reading.
// Nothing may crash or throw; a malformed answer is an error value.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include <watch/nvml_protocol.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  while (!text.empty()) {
    auto nl = text.find('\n');
    auto line = text.substr(0, nl);
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded()) {
      (void)gpudoctor::watch::parse_nvml_reading(j, "");
      (void)gpudoctor::watch::parse_nvml_reading(j, "in a child pid namespace");
    }
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return 0;
}
