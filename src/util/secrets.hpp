// What must never leave the machine in a capture or a report: values that are credentials. Used by
// the environment allowlist (probe/env_probe), capture's filters of /proc/*/environ,
// /proc/*/cmdline and dist-info/direct_url.json, and the driver probe's process command lines.
//
// Two tests, either enough: the NAME looks secret (it holds TOKEN, SECRET, PASSWORD, PASSWD, KEY,
// CREDENTIAL, AUTH, COOKIE or SESSION, in any case), or the VALUE has the shape of a known credential
// (an NVIDIA API key "nvapi-...", a Hugging Face "hf_..." token, GitHub, GitLab, Slack, OpenAI-style
// and AWS keys, a JWT, a PEM private key) or a URL carries a user:password. Plain functions, no state.
#pragma once

#include <string>
#include <string_view>

namespace gpudoctor::util {

bool name_looks_secret(std::string_view name);
bool value_looks_secret(std::string_view value);

inline constexpr std::string_view k_redacted = "<redacted>";

// "https://user:pass@host/x" -> "https://<redacted>@host/x"; every URL in `text` is treated.
std::string redact_url_credentials(std::string_view text);

// A NUL-separated argv block (/proc/PID/cmdline) with the values of secret-looking options
// ("--api-key X", "--hf-token=X", "-p X" is kept: short options are ambiguous) and every
// secret-looking argument replaced by k_redacted; URL credentials removed.
std::string redact_argv(std::string_view argv_block);

}  // namespace gpudoctor::util
