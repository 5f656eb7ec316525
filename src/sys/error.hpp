// Error: the one error type of gpudoctor. A probe that cannot read a fact returns an Error, and the
// Error travels into the facts as "could not be read, because ...": unknown is never zero.
//
// Expected<T>: a value or an Error (std::expected arrives with C++23; this is the subset we use).
// Thread-safety: plain values; safe to copy between threads.
#pragma once

#include <cerrno>
#include <string>
#include <utility>
#include <variant>

namespace gpudoctor::sys {

enum class ErrorCode {
  not_found,          // ENOENT, ENOTDIR
  permission_denied,  // EACCES, EPERM
  loop,               // ELOOP: a symlink cycle
  too_large,          // a bounded read hit its limit
  invalid,            // malformed content
  timeout,
  crashed,
  unavailable,        // a library or tool that is not there
  io,                 // any other errno
};

struct Error {
  ErrorCode code = ErrorCode::io;
  std::string message;  // "open /sys/bus/pci/devices/X/vendor: permission denied"
};

// The one place errno is turned into an Error.
Error error_from_errno(int err, std::string_view what);

const char* to_string(ErrorCode code);

template <typename T>
class Expected {
 public:
  Expected(T value) : m_v(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Expected(Error error) : m_v(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const { return m_v.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(m_v); }
  const T& value() const& { return std::get<0>(m_v); }
  T&& value() && { return std::get<0>(std::move(m_v)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(m_v); }
  template <typename U>
  T value_or(U&& fallback) const {
    return has_value() ? value() : T(std::forward<U>(fallback));
  }

 private:
  std::variant<T, Error> m_v;
};

}  // namespace gpudoctor::sys
