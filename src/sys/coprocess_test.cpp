#include <sys/coprocess.hpp>

#include <signal.h>

#include <chrono>

#include <gtest/gtest.h>

namespace gpudoctor::sys {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

Coprocess sh(const std::string& script) {
  auto c = Coprocess::start({"/bin/sh", "-c", script});
  EXPECT_TRUE(c) << (c ? "" : c.error().message);
  return std::move(*c);
}

TEST(Coprocess, AnswersLineByLine) {
  Coprocess c = sh("echo hello; while read l; do echo \"got $l\"; done");
  auto hello = c.receive(5s);
  ASSERT_EQ(hello.status, LineStatus::line);
  EXPECT_EQ(hello.line, "hello");
  for (std::string word : {"one", "two"}) {
    ASSERT_TRUE(c.send(word));
    auto r = c.receive(5s);
    ASSERT_EQ(r.status, LineStatus::line);
    EXPECT_EQ(r.line, "got " + word);
  }
  EXPECT_EQ(c.stop(1s), "exited with status 0");  // EOF on its stdin ends the loop
  EXPECT_EQ(c.stop(), "exited with status 0");     // idempotent
}

TEST(Coprocess, WaitIsBoundedWhenNothingComes) {
  Coprocess c = sh("sleep 30");
  auto start = Clock::now();
  auto r = c.receive(100ms);
  EXPECT_EQ(r.status, LineStatus::timeout);
  EXPECT_LT(Clock::now() - start, 3s);
  // A helper that ignores EOF is killed once the grace is over, its whole group with it.
  start = Clock::now();
  EXPECT_EQ(c.stop(50ms), "killed by SIGKILL (stopped)");
  EXPECT_LT(Clock::now() - start, 3s);
}

TEST(Coprocess, CrashIsClosedThenDescribed) {
  Coprocess c = sh("read l; kill -SEGV $$");
  ASSERT_TRUE(c.send("go"));
  auto r = c.receive(5s);
  EXPECT_EQ(r.status, LineStatus::closed);
  EXPECT_EQ(c.stop(1s), "killed by SIGSEGV");
}

TEST(Coprocess, WritingToADeadHelperIsAnErrorNotSigpipe) {
  Coprocess c = sh("exit 4");
  EXPECT_EQ(c.receive(5s).status, LineStatus::closed);
  // The helper is gone; without MSG_NOSIGNAL the second write would raise SIGPIPE and end the test.
  bool failed = false;
  for (int i = 0; i < 3 && !failed; ++i) failed = !c.send(std::string(70000, 'x'));
  EXPECT_TRUE(failed);
  EXPECT_EQ(c.stop(1s), "exited with status 4");
}

TEST(Coprocess, OverlongLineClosesTheChannel) {
  Coprocess c = sh("head -c 100000 /dev/zero | tr '\\0' x; sleep 30");
  EXPECT_EQ(c.receive(5s, 1000).status, LineStatus::closed);
}

TEST(Coprocess, PartialLinesAreJoined) {
  Coprocess c = sh("printf 'par'; sleep 0.2; printf 'tial\\nnext\\n'; sleep 30");
  auto r = c.receive(5s);
  ASSERT_EQ(r.status, LineStatus::line);
  EXPECT_EQ(r.line, "partial");
  r = c.receive(5s);
  ASSERT_EQ(r.status, LineStatus::line);
  EXPECT_EQ(r.line, "next");
}

TEST(Coprocess, MissingProgramIsAnError) {
  auto c = Coprocess::start({"/nonexistent/gpudoctor-no-such-helper"});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::not_found);
}

TEST(Coprocess, HelperStderrIsDevNullAndItHasItsOwnProcessGroup) {
  // A vendor library's chatter must not reach the user's terminal, nor a Ctrl-C meant for the job
  // reach the helper.
  Coprocess c = sh("readlink /proc/$$/fd/2; ps -o pgid= -p $$ | tr -d ' '");
  auto r = c.receive(5s);
  ASSERT_EQ(r.status, LineStatus::line);
  EXPECT_EQ(r.line, "/dev/null");
  r = c.receive(5s);
  ASSERT_EQ(r.status, LineStatus::line);
  EXPECT_EQ(r.line, std::to_string(c.pid()));
}

}  // namespace
}  // namespace gpudoctor::sys
