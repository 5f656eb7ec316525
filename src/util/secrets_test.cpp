#include <util/secrets.hpp>

#include <gtest/gtest.h>

namespace gpudoctor::util {
namespace {

using namespace std::string_literals;

TEST(Secrets, NamesThatHoldCredentials) {
  for (const char* name : {"NVIDIA_API_KEY", "HF_TOKEN", "TF_TOKEN_app_terraform_io", "TF_VAR_db_password",
                           "AWS_SECRET_ACCESS_KEY", "WANDB_API_KEY", "GITHUB_AUTH", "MY_COOKIE", "DB_PASSWD",
                           "GOOGLE_APPLICATION_CREDENTIALS", "TMUX_SESSION", "hf_token"}) {
    EXPECT_TRUE(name_looks_secret(name)) << name;
  }
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "PATH", "TF_CPP_MIN_LOG_LEVEL"}) {
    EXPECT_FALSE(name_looks_secret(name)) << name;
  }
}

TEST(Secrets, ValuesShapedLikeCredentials) {
  for (const char* v : {"nvapi-AbCdEf0123456789_ghIJKLmnopQRstuVWxyz-0123456789abcdefghijk",
                        "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345678", "ghp_0123456789abcdefghijABCDEFGHIJ012345",
                        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "glpat-0123456789abcdefABCD",
                        "sk-proj-0123456789abcdefghijklmnopqrstuvwxyz", "AKIAIOSFODNN7EXAMPLE",
                        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                        "-----BEGIN OPENSSH PRIVATE KEY-----", "https://user:hunter2@pypi.example.org/simple"}) {
    EXPECT_TRUE(value_looks_secret(v)) << v;
  }
  for (const char* v : {"0,1", "/usr/local/cuda/lib64:/usr/lib", "sk-learn", "hf_home", "all", "compute,utility",
                        "https://download.pytorch.org/whl/cu121", "--xla_gpu_autotune_level=0"}) {
    EXPECT_FALSE(value_looks_secret(v)) << v;
  }
}

TEST(Secrets, UrlCredentialsAreRemovedAndTheRestKept) {
  EXPECT_EQ(redact_url_credentials(R"({"url": "git+https://x-token:ghp_abc@github.com/org/repo.git"})"),
            R"({"url": "git+https://<redacted>@github.com/org/repo.git"})");
  EXPECT_EQ(redact_url_credentials("https://pypi.org/simple https://a:b@h/x?q=1"),
            "https://pypi.org/simple https://<redacted>@h/x?q=1");
  EXPECT_EQ(redact_url_credentials("no url here"), "no url here");
}

TEST(Secrets, CommandLinesLoseSecretValuesOnly) {
  auto in = "python\0serve.py\0--api-key\0abc123\0--hf-token=hf_x\0--port\0""8000\0HF_TOKEN=zz\0"
            "--index-url\0https://u:p@host/simple\0nvapi-0123456789abcdefghijkl\0"s;
  auto want = "python\0serve.py\0--api-key\0<redacted>\0--hf-token=<redacted>\0--port\0""8000\0HF_TOKEN=<redacted>\0"
              "--index-url\0https://<redacted>@host/simple\0<redacted>\0"s;
  EXPECT_EQ(redact_argv(in), want);
}

}  // namespace
}  // namespace gpudoctor::util
