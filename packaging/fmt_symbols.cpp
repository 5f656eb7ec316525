// The functions of libfmt that gpudoctor's objects call out of line, for the portable binary
// (cmake/portable.cmake): Debian ships fmt as a shared library only. This file is compiled with
// FMT_HEADER_ONLY, where those functions are inline; taking their addresses here emits them, under
// the same names the objects built against libfmt.so ask for. A portable link that fails on an
// undefined fmt::v9::... symbol means one more function belongs in the table.
#include <fmt/format.h>

#include <cstdint>

namespace gpudoctor::portable {

extern const void* const k_fmt_functions[];
const void* const k_fmt_functions[] = {
    reinterpret_cast<const void*>(static_cast<std::string (*)(fmt::string_view, fmt::format_args)>(&fmt::vformat)),
    reinterpret_cast<const void*>(&fmt::detail::throw_format_error),
    reinterpret_cast<const void*>(static_cast<bool (*)(std::uint32_t)>(&fmt::detail::is_printable)),
};

}  // namespace gpudoctor::portable
