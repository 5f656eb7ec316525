#include <sys/subprocess.hpp>

#include <signal.h>

#include <gtest/gtest.h>

namespace gpudoctor::sys {
namespace {

using namespace std::chrono_literals;

ProcessOptions sh(std::string script) {
  ProcessOptions o;
  o.argv = {"/bin/sh", "-c", std::move(script)};
  return o;
}

TEST(Subprocess, CapturesOutputAndExitCode) {
  auto r = run_process(sh("echo out; echo err >&2; exit 3"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_FALSE(r->ok());
}

TEST(Subprocess, TimeoutKillsTheWholeGroup) {
  ProcessOptions o = sh("sleep 30 & sleep 30");
  o.timeout = 200ms;
  auto r = run_process(o);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(r->wall_ms, 5000);
}

TEST(Subprocess, ReportsTheCrashingSignal) {
  auto r = run_process(sh("kill -SEGV $$"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->term_signal, SIGSEGV);
  EXPECT_EQ(signal_name(r->term_signal), "SIGSEGV");
}

TEST(Subprocess, MissingProgramIsAnError) {
  ProcessOptions o;
  o.argv = {"/nonexistent/gpudoctor-no-such-program"};
  auto r = run_process(o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::not_found);
}

TEST(Subprocess, BoundsOutputButDrainsTheRest) {
  ProcessOptions o = sh("head -c 1000000 /dev/zero");
  o.output_limit = 1000;
  auto r = run_process(o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->out.size(), 1000u);
  EXPECT_TRUE(r->out_truncated);
}

TEST(Subprocess, PassesStdinEnvAndCwd) {
  ProcessOptions o = sh("cat; echo \" $GD_X\"; pwd");
  o.stdin_data = "hello";
  o.env = std::vector<std::string>{"GD_X=42", "PATH=/usr/bin:/bin"};
  o.cwd = "/";
  auto r = run_process(o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "hello 42\n/\n");
}

}  // namespace
}  // namespace gpudoctor::sys
