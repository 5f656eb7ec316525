// Known<T>: a fact that is either a value or "could not be read, because ...". A diagnosis must be
// able to say "NVML did not report X", which is neither "X = 0" nor "X is fine".
//
// JSON form: the value itself when known, {"unknown": "why"} when not.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include <sys/error.hpp>
#include <util/json_number.hpp>

namespace gpudoctor::facts {

template <typename T>
class Known {
 public:
  Known() : m_why("not probed") {}
  Known(T value) : m_value(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  static Known unknown(std::string why) {
    Known k;
    k.m_why = std::move(why);
    return k;
  }
  template <typename E>
  static Known from(sys::Expected<E> e) {
    if (e) return Known(T(std::move(e.value())));
    return unknown(e.error().message);
  }

  bool known() const { return m_value.has_value(); }
  explicit operator bool() const { return known(); }
  const T& value() const { return *m_value; }
  T& value() { return *m_value; }
  const T& operator*() const { return *m_value; }
  const T* operator->() const { return &*m_value; }
  T value_or(T fallback) const { return m_value ? *m_value : std::move(fallback); }
  // Why the value is missing ("" when known).
  const std::string& why() const { return m_why; }

  bool operator==(const Known& other) const = default;

 private:
  std::optional<T> m_value;
  std::string m_why;
};

}  // namespace gpudoctor::facts

template <typename T>
struct nlohmann::adl_serializer<gpudoctor::facts::Known<T>> {
  static void to_json(json& j, const gpudoctor::facts::Known<T>& k) {
    if (k.known()) {
      j = k.value();
    } else {
      j = json{{"unknown", k.why()}};
    }
  }
  static void from_json(const json& j, gpudoctor::facts::Known<T>& k) {
    if (j.is_object() && j.size() == 1 && j.contains("unknown") && j["unknown"].is_string()) {
      k = gpudoctor::facts::Known<T>::unknown(j["unknown"].get<std::string>());
    } else {
      // Numbers checked: a report read back may hold 3e19 where a byte count belongs.
      k = gpudoctor::facts::Known<T>(gpudoctor::util::json_get<T>(j));
    }
  }
};
