// Numbers read from JSON that gpudoctor did not write (a report pasted back, a helper's reply, a
// fuzzed input) must fit the field they land in. nlohmann converts 3.2e19 to an unsigned long and
// 1e30 to an int with a plain cast, which is undefined behaviour; these helpers refuse such values
// with nlohmann's own out_of_range exception, which every reader already handles as bad input.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpudoctor::util {

// True when j is a number whose value T can hold (an integral T also takes an integral-valued float).
template <typename T>
bool json_number_fits(const nlohmann::json& j) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  if (!j.is_number()) return false;
  if constexpr (std::is_floating_point_v<T>) {
    if (j.is_number_float()) {
      const double d = j.get<double>();
      return !std::isfinite(d) || std::fabs(d) <= static_cast<double>(std::numeric_limits<T>::max());
    }
    return true;
  } else {
    if (j.is_number_unsigned()) {
      return j.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    }
    if (j.is_number_integer()) {
      const auto v = j.get<std::int64_t>();
      if constexpr (std::is_unsigned_v<T>) {
        return v >= 0 && static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
      } else {
        return v >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
               v <= static_cast<std::int64_t>(std::numeric_limits<T>::max());
      }
    }
    const double d = j.get<double>();
    // Bounds as doubles: max() of a 64-bit type rounds up to 2^64 (or 2^63), so the upper test is strict.
    const double lo = static_cast<double>(std::numeric_limits<T>::min());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    return std::isfinite(d) && d == std::trunc(d) && d >= lo && d < hi;
  }
}

// j converted to T, or nlohmann::json::out_of_range when it is not a number T can hold.
template <typename T>
T json_number(const nlohmann::json& j) {
  if (!json_number_fits<T>(j)) {
    if (!j.is_number()) throw nlohmann::json::type_error::create(302, "expected a number, got " + std::string(j.type_name()), &j);
    throw nlohmann::json::out_of_range::create(406, "number " + j.dump() + " does not fit this field", &j);
  }
  return j.get<T>();
}

// j[key] converted to T, fallback when absent; a present value that does not fit throws as above.
template <typename T>
T json_number_or(const nlohmann::json& j, const char* key, T fallback) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return json_number<T>(*it);
}

template <typename T>
struct is_json_vector : std::false_type {};
template <typename U, typename A>
struct is_json_vector<std::vector<U, A>> : std::true_type {};
template <typename T>
struct is_json_string_map : std::false_type {};
template <typename U, typename C, typename A>
struct is_json_string_map<std::map<std::string, U, C, A>> : std::true_type {};

// j converted to T with every number on the way checked: arithmetic T, vectors and string-keyed maps
// of them, and everything else through nlohmann (structs, strings and enums, whose own from_json
// reads their members through this).
template <typename T>
T json_get(const nlohmann::json& j) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    return json_number<T>(j);
  } else if constexpr (is_json_vector<T>::value) {
    if (!j.is_array()) throw nlohmann::json::type_error::create(302, "expected an array, got " + std::string(j.type_name()), &j);
    T out;
    out.reserve(j.size());
    for (const auto& e : j) out.push_back(json_get<typename T::value_type>(e));
    return out;
  } else if constexpr (is_json_string_map<T>::value) {
    if (!j.is_object()) throw nlohmann::json::type_error::create(302, "expected an object, got " + std::string(j.type_name()), &j);
    T out;
    for (const auto& [k, v] : j.items()) out.emplace(k, json_get<typename T::mapped_type>(v));
    return out;
  } else {
    return j.get<T>();
  }
}

// field = j[key] through json_get, or fallback when j has no such key (nlohmann's value() semantics,
// with the numbers checked).
template <typename T>
void json_field(const nlohmann::json& j, const char* key, T& field, const T& fallback) {
  if (!j.is_object()) throw nlohmann::json::type_error::create(306, "cannot read '" + std::string(key) + "' from " + std::string(j.type_name()), &j);
  const auto it = j.find(key);
  field = it == j.end() ? fallback : json_get<T>(*it);
}

}  // namespace gpudoctor::util

// NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT with every member read through json_field.
#define GPUDOCTOR_JSON_FIELD_FROM(v1) \
  ::gpudoctor::util::json_field(nlohmann_json_j, #v1, nlohmann_json_t.v1, nlohmann_json_default_obj.v1);
#define GPUDOCTOR_JSON_TYPE_WITH_DEFAULT(Type, ...)                                                    \
  inline void to_json(nlohmann::json& nlohmann_json_j, const Type& nlohmann_json_t) {                 \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))                            \
  }                                                                                                    \
  inline void from_json(const nlohmann::json& nlohmann_json_j, Type& nlohmann_json_t) {               \
    const Type nlohmann_json_default_obj{};                                                            \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(GPUDOCTOR_JSON_FIELD_FROM, __VA_ARGS__))                   \
  }
