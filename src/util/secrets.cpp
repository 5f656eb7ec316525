#include <util/secrets.hpp>

#include <algorithm>
#include <array>
#include <cctype>

#include <util/text.hpp>

namespace gpudoctor::util {
namespace {

// Words that mark a variable or option as holding a credential (AWS_SECRET_ACCESS_KEY,
// HF_TOKEN, NVIDIA_API_KEY, TF_TOKEN_app_terraform_io, TF_VAR_db_password, WANDB_API_KEY ...).
constexpr std::array<std::string_view, 9> k_secret_words = {"TOKEN",      "SECRET", "PASSWORD", "PASSWD", "KEY",
                                                           "CREDENTIAL", "AUTH",   "COOKIE",   "SESSION"};

// Prefixes of credentials whose shape says what they are, as their issuers document them:
// nvapi- (NVIDIA API catalog keys), hf_ (Hugging Face user access tokens), ghp_/gho_/ghu_/ghs_/ghr_
// and github_pat_ (GitHub), glpat- (GitLab), xoxb-/xoxp-/xoxa- (Slack), sk- (OpenAI-style keys),
// AKIA/ASIA (AWS access key ids), AIza (Google API keys), -----BEGIN (PEM private keys).
struct Shape {
  std::string_view prefix;
  std::size_t min_length;  // of the whole value; short words that merely start so are not keys
};
constexpr std::array<Shape, 15> k_shapes = {{{"nvapi-", 20},
                                             {"hf_", 20},
                                             {"ghp_", 20},
                                             {"gho_", 20},
                                             {"ghu_", 20},
                                             {"ghs_", 20},
                                             {"ghr_", 20},
                                             {"github_pat_", 20},
                                             {"glpat-", 20},
                                             {"xoxb-", 15},
                                             {"xoxp-", 15},
                                             {"xoxa-", 15},
                                             {"sk-", 20},
                                             {"AKIA", 20},
                                             {"AIza", 30}}};

bool token_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; }

bool looks_like_jwt(std::string_view v) {
  if (!v.starts_with("eyJ") || v.size() < 30) return false;
  if (std::count(v.begin(), v.end(), '.') != 2) return false;
  return std::all_of(v.begin(), v.end(), [](char c) { return token_char(c) || c == '=' || c == '+' || c == '/'; });
}

bool option_looks_secret(std::string_view arg) {
  if (!arg.starts_with("--")) return false;
  auto eq = arg.find('=');
  return name_looks_secret(arg.substr(2, eq == std::string_view::npos ? std::string_view::npos : eq - 2));
}

}  // namespace

bool name_looks_secret(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return std::any_of(k_secret_words.begin(), k_secret_words.end(),
                     [&](std::string_view w) { return upper.find(w) != std::string::npos; });
}

bool value_looks_secret(std::string_view value) {
  auto v = trim(value);
  if (v.find("-----BEGIN") != std::string_view::npos) return true;
  if (looks_like_jwt(v)) return true;
  if (v.starts_with("ASIA") && v.size() == 20) return true;  // AWS temporary access key id
  for (const auto& s : k_shapes) {
    if (v.starts_with(s.prefix) && v.size() >= s.min_length &&
        std::all_of(v.begin() + static_cast<std::ptrdiff_t>(s.prefix.size()), v.end(), token_char)) {
      return true;
    }
  }
  return redact_url_credentials(v) != v;
}

std::string redact_url_credentials(std::string_view text) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    auto scheme = text.find("://", pos);
    if (scheme == std::string_view::npos) break;
    std::size_t host = scheme + 3;
    // The authority ends at the first '/', '?', '#' or white space; a '@' inside it ends user:pass.
    std::size_t end = host;
    while (end < text.size() && text[end] != '/' && text[end] != '?' && text[end] != '#' &&
           !std::isspace(static_cast<unsigned char>(text[end]))) {
      ++end;
    }
    auto at = text.substr(host, end - host).rfind('@');
    out.append(text.substr(pos, host - pos));
    if (at != std::string_view::npos) {
      out.append(k_redacted);
      out.append(text.substr(host + at, end - host - at));
    } else {
      out.append(text.substr(host, end - host));
    }
    pos = end;
  }
  out.append(text.substr(pos));
  return out;
}

std::string redact_argv(std::string_view argv_block) {
  std::string out;
  bool hide_next = false;
  auto args = split(argv_block, '\0');
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto arg = args[i];
    if (i > 0) out.push_back('\0');  // joined as split: a block ending in NUL still does
    std::string kept;
    if (hide_next && !arg.empty()) {
      kept = k_redacted;
      hide_next = false;
    } else if (option_looks_secret(arg)) {
      auto eq = arg.find('=');
      if (eq == std::string_view::npos) {
        kept = std::string(arg);
        hide_next = true;
      } else {
        kept = std::string(arg.substr(0, eq + 1)) + std::string(k_redacted);
      }
    } else if (auto eq = arg.find('='); eq != std::string_view::npos && eq > 0 && name_looks_secret(arg.substr(0, eq))) {
      kept = std::string(arg.substr(0, eq + 1)) + std::string(k_redacted);  // "env HF_TOKEN=... python"
    } else if (value_looks_secret(arg)) {
      kept = value_looks_secret(redact_url_credentials(arg)) ? std::string(k_redacted) : redact_url_credentials(arg);
    } else {
      kept = std::string(arg);
    }
    out += kept;
  }
  return out;
}

}  // namespace gpudoctor::util
