#include <sys/error.hpp>

#include <cstring>

namespace gpudoctor::sys {

Error error_from_errno(int err, std::string_view what) {
  ErrorCode code = ErrorCode::io;
  switch (err) {
    case ENOENT:
    case ENOTDIR: code = ErrorCode::not_found; break;
    case EACCES:
    case EPERM: code = ErrorCode::permission_denied; break;
    case ELOOP: code = ErrorCode::loop; break;
    case EFBIG: code = ErrorCode::too_large; break;
    default: break;
  }
  std::string message(what);
  message += ": ";
  message += std::strerror(err);
  return Error{code, std::move(message)};
}

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::not_found: return "not_found";
    case ErrorCode::permission_denied: return "permission_denied";
    case ErrorCode::loop: return "loop";
    case ErrorCode::too_large: return "too_large";
    case ErrorCode::invalid: return "invalid";
    case ErrorCode::timeout: return "timeout";
    case ErrorCode::crashed: return "crashed";
    case ErrorCode::unavailable: return "unavailable";
    case ErrorCode::io: return "io";
  }
  return "io";
}

}  // namespace gpudoctor::sys
