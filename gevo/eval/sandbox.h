//===- sandbox.h - Run untrusted work in forked children, N at a time -----===//
//
// Every variant may crash, hang, or allocate without bound. A SandboxPool runs
// each piece of work in its own forked child (copy-on-write: the child sees
// the parent's module, data and compiled code for free; or a child started
// by a ForkServer, a copy of the parent made earlier) with a wall-clock
// timeout and an address-space limit, at most `workers` at once, and tells
// how each child ended: its payload, a signal, a timeout, or out of memory.
// No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_SANDBOX_H
#define GEVO_EVAL_SANDBOX_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gevo {

struct SandboxLimits {
  /// Wall-clock limit per child; <= 0: none.
  double timeoutSeconds = 10;
  /// Address space a child may add to what the parent already maps; <= 0:
  /// none.
  int64_t memoryBytes = int64_t(4) << 30;
};

struct ChildResult {
  enum class Ending {
    Exited,      // exit status in exitCode; payload is what the work returned
    Signaled,    // killed by `signal` (SIGSEGV, SIGABRT, ...)
    TimedOut,    // ran past the timeout and was killed
    OutOfMemory, // an allocation failed under the memory limit
    ForkFailed,  // no child could be started
  };
  Ending ending = Ending::Exited;
  int exitCode = 0;
  int signal = 0;
  /// What the work returned (only when it returned).
  std::string payload;
  /// The last few KiB the child wrote to stderr (runtime errors, aborts).
  std::string stderrTail;
  double wallMs = 0;
  /// The CPU time the child used, user and system (its exit included), and
  /// of it the system's; 0 where no child was reaped (a failed fork).
  double cpuMs = 0, systemMs = 0;

  bool returned() const { return ending == Ending::Exited && exitCode == 0; }
  /// "exit 3", "signal 11 (Segmentation fault)", "timeout after 2.0 s", ...
  std::string describe() const;
};

/// The exit code a child uses when an allocation failed (see
/// exitOnAllocationFailure); the pool reports it as Ending::OutOfMemory.
constexpr int kOutOfMemoryExitCode = 86;

/// For code running in a child: end it now as out of memory.
[[noreturn]] void exitOnAllocationFailure();

/// The work a child does; it returns the payload sent back to the parent.
using ChildWork = std::function<std::string()>;

/// A child's side, for code that starts children another way
/// (fork_server.h): its limits and redirections (stderr and stdout to
/// `stderrFd`), the work, its payload to `payloadFd`, and a quick exit that
/// runs no destructors of the parent's state.
[[noreturn]] void runChildWork(const ChildWork &work,
                               const SandboxLimits &limits, int payloadFd,
                               int stderrFd);

class ForkServer;

class SandboxPool {
public:
  SandboxPool(int workers, SandboxLimits limits);
  ~SandboxPool();
  SandboxPool(const SandboxPool &) = delete;
  SandboxPool &operator=(const SandboxPool &) = delete;

  /// Forks a child for `work` as soon as a slot is free (waiting for one if
  /// needed) and calls `done` in the parent when the child has ended. `done`
  /// runs inside submit() or wait() calls, never concurrently.
  void submit(ChildWork work, std::function<void(ChildResult)> done);
  /// As submit(), but the child is started by `server` (fork_server.h) and
  /// does its Work on `request`; where the server cannot start it, it ends
  /// as ForkFailed with the reason in its stderr tail.
  void submitVia(ForkServer &server, const std::string &request,
                 std::function<void(ChildResult)> done);
  /// Waits until every submitted child has ended.
  void wait();
  /// Reaps the children that have ended, waiting at most `maxWaitMs` for
  /// one to end (for a caller that also listens elsewhere: gevo/mpi).
  void service(int maxWaitMs) { serviceOnce(maxWaitMs); }
  /// Children running now.
  int runningCount() const { return static_cast<int>(running.size()); }
  /// Limits for children submitted from now on.
  void setLimits(SandboxLimits newLimits) { limits = newLimits; }
  const SandboxLimits &currentLimits() const { return limits; }
  int workerCount() const { return workers; }

private:
  struct Running;
  /// Starts a child: `launch` gets the write ends of its payload and stderr
  /// pipes and returns its pid (or a negative number and a reason).
  void start(const std::function<pid_t(int payloadFd, int stderrFd,
                                       std::string &why)> &launch,
             std::function<void(ChildResult)> done);
  /// Waits up to `maxWaitMs` (less when a deadline comes sooner) for a
  /// child to end and reaps every child that has.
  void serviceOnce(int maxWaitMs = 100);
  void readAvailable(Running &child, bool toEnd);
  void drain(Running &child);
  /// waitpid() with `options` that also records the child's CPU time in
  /// its result; whether `child` was reaped.
  bool reap(Running &child, int &status, int options);
  int workers;
  SandboxLimits limits;
  std::vector<Running *> running;
};

/// Runs one piece of work in a child and waits for it.
ChildResult runIsolated(ChildWork work, SandboxLimits limits);

} // namespace gevo

#endif // GEVO_EVAL_SANDBOX_H
