//===- fork_server_test.cc - Children started by a fork server ------------===//

#include "gevo/eval/fork_server.h"

#include <signal.h>
#include <unistd.h>

#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gevo/eval/sandbox.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// State the server holds (control messages change its copy only).
std::string heldInServer;

std::unique_ptr<ForkServer> startServer() {
  heldInServer.clear();
  absl::StatusOr<std::unique_ptr<ForkServer>> server = ForkServer::start(
      [](const std::string &request) -> std::string {
        if (request == "crash")
          raise(SIGSEGV);
        if (request == "hang")
          for (;;)
            pause();
        if (request == "stderr") {
          std::fputs("a note on stderr\n", stderr);
          return "";
        }
        if (request == "held")
          return heldInServer;
        if (request.rfind("size:", 0) == 0)
          return absl::StrCat(request.size());
        return absl::StrCat(getppid(), " ", request);
      },
      [](const std::string &message) -> absl::Status {
        if (message == "fail")
          return absl::InvalidArgumentError("told to fail");
        heldInServer += message;
        return absl::OkStatus();
      });
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? std::move(*server) : nullptr;
}

ChildResult runVia(ForkServer &server, const std::string &request,
                   SandboxLimits limits = {}) {
  SandboxPool pool(1, limits);
  ChildResult out;
  pool.submitVia(server, request,
                 [&](ChildResult result) { out = std::move(result); });
  pool.wait();
  return out;
}

TEST(ForkServerTest, ChildrenAreTheCallersAndGetTheRequest) {
  std::unique_ptr<ForkServer> server = startServer();
  ASSERT_TRUE(server);
  ChildResult result = runVia(*server, "a request");
  ASSERT_TRUE(result.returned()) << result.describe();
  std::vector<std::string> words = absl::StrSplit(result.payload, ' ');
  ASSERT_EQ(words.size(), 3u) << result.payload;
  int parent = 0;
  ASSERT_TRUE(absl::SimpleAtoi(words[0], &parent));
  // CLONE_PARENT: the caller reaped it and read its CPU time.
  EXPECT_EQ(parent, getpid());
  EXPECT_NE(parent, server->pid());
  EXPECT_EQ(words[1] + " " + words[2], "a request");
  EXPECT_GT(result.cpuMs, 0);
}

TEST(ForkServerTest, ALargeRequestArrivesWhole) {
  std::unique_ptr<ForkServer> server = startServer();
  ASSERT_TRUE(server);
  std::string request = "size:" + std::string(3 << 20, 'x');
  ChildResult result = runVia(*server, request);
  ASSERT_TRUE(result.returned()) << result.describe();
  EXPECT_EQ(result.payload, absl::StrCat(request.size()));
}

TEST(ForkServerTest, CrashesHangsAndStderrAreReportedAsForOwnChildren) {
  std::unique_ptr<ForkServer> server = startServer();
  ASSERT_TRUE(server);
  ChildResult crashed = runVia(*server, "crash");
  EXPECT_EQ(crashed.ending, ChildResult::Ending::Signaled);
  EXPECT_EQ(crashed.signal, SIGSEGV);
  SandboxLimits short_;
  short_.timeoutSeconds = 0.3;
  ChildResult hung = runVia(*server, "hang", short_);
  EXPECT_EQ(hung.ending, ChildResult::Ending::TimedOut);
  ChildResult noted = runVia(*server, "stderr");
  EXPECT_TRUE(noted.returned());
  EXPECT_NE(noted.stderrTail.find("a note on stderr"), std::string::npos);
  // The server survives its children.
  EXPECT_TRUE(runVia(*server, "again").returned());
}

TEST(ForkServerTest, ControlMessagesChangeTheServersStateOnly) {
  std::unique_ptr<ForkServer> server = startServer();
  ASSERT_TRUE(server);
  ASSERT_TRUE(server->control("one,").ok());
  ASSERT_TRUE(server->control("two").ok());
  EXPECT_EQ(heldInServer, "");
  EXPECT_EQ(runVia(*server, "held").payload, "one,two");
  absl::Status failed = server->control("fail");
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(failed.message(), "told to fail");
  EXPECT_TRUE(server->alive());
}

TEST(ForkServerTest, AChildOfADeadServerFailsToStartAndSaysWhy) {
  std::unique_ptr<ForkServer> server = startServer();
  ASSERT_TRUE(server);
  ASSERT_EQ(::kill(server->pid(), SIGKILL), 0);
  ChildResult result = runVia(*server, "a request");
  EXPECT_EQ(result.ending, ChildResult::Ending::ForkFailed);
  EXPECT_NE(result.stderrTail.find("fork server is gone"), std::string::npos)
      << result.stderrTail;
  EXPECT_FALSE(server->alive());
}

} // namespace
} // namespace gevo
