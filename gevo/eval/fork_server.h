//===- fork_server.h - Children forked from a small copy of the session ---===//
//
// A search process grows (its archive, remembered builds, caches) and every
// child forked from it pays for that size: the fork copies its page tables,
// each page the child or the parent then writes is copied, and the child's
// exit tears the copy down. A ForkServer is forked once, while the process is
// still small (EvaluationSession::create, after its warm-up), and starts each
// sandbox child from there: the child is a copy of the server, made with
// clone(CLONE_PARENT), so it is still the caller's child and SandboxPool
// times, kills and reaps it as one it forked itself. The work a child does
// travels as bytes (a memfd); state the server must hold (front members
// compiled for head-to-head pairs) travels as control messages that the
// server runs itself. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_FORK_SERVER_H
#define GEVO_EVAL_FORK_SERVER_H

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/eval/sandbox.h"

namespace gevo {

class ForkServer {
public:
  /// What a child started from the server does with a request's bytes: the
  /// payload it returns, as ChildWork does.
  using Work = std::function<std::string(const std::string &request)>;
  /// What the server itself does with a control message's bytes.
  using Control = std::function<absl::Status(const std::string &message)>;

  /// Forks the server now; it runs `work` and `control` in its copy of
  /// this process. An error where no server could be started (the caller
  /// then forks its children itself).
  static absl::StatusOr<std::unique_ptr<ForkServer>> start(Work work,
                                                           Control control);
  /// Ends the server (its children, the caller's, are the caller's to end).
  ~ForkServer();
  ForkServer(const ForkServer &) = delete;
  ForkServer &operator=(const ForkServer &) = delete;

  /// Starts a child of this process from the server that runs Work on
  /// `request` under `limits` (as a SandboxPool child: its payload to
  /// `payloadFd`, its stderr and stdout to `stderrFd`); its pid. An error
  /// where the server is gone or could not start it.
  absl::StatusOr<pid_t> launch(const std::string &request,
                               const SandboxLimits &limits, int payloadFd,
                               int stderrFd);
  /// Runs Control on `message` in the server and returns its status.
  absl::Status control(const std::string &message);
  /// Whether the server still answers (false after it died or failed).
  bool alive() const { return socketFd >= 0; }
  pid_t pid() const { return serverPid; }

private:
  ForkServer(int socketFd, pid_t serverPid)
      : socketFd(socketFd), serverPid(serverPid) {}
  /// Sends one message (its kind, `bytes` in a memfd, and `fds`) and reads
  /// the server's answer; marks the server dead on any failure.
  absl::StatusOr<int64_t> exchange(char kind, const std::string &bytes,
                                   const SandboxLimits &limits,
                                   std::initializer_list<int> fds);
  int socketFd = -1;
  pid_t serverPid = -1;
};

} // namespace gevo

#endif // GEVO_EVAL_FORK_SERVER_H
