// Suppression comments: `# gpudoctor: ignore[code.sync_in_loop]` (or several ids, comma-separated;
// the `code.` prefix may be left out) on a finding's line silences that finding; a bare
// `# gpudoctor: ignore` silences every rule on the line. A notebook cell line works the same way.
#pragma once

#include <string_view>

namespace gpudoctor::scan {

// Whether `line` carries a suppression comment that covers rule `id`.
bool is_suppressed(std::string_view line, std::string_view id);

}  // namespace gpudoctor::scan
