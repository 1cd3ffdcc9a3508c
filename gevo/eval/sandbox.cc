//===- sandbox.cc - Run untrusted work in forked children, N at a time ----===//

#include "gevo/eval/sandbox.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/eval/fork_server.h"

namespace gevo {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kStderrTailBytes = 4096;

double msBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

/// Bytes of address space this process maps now.
int64_t mappedBytes() {
  FILE *statm = std::fopen("/proc/self/statm", "r");
  if (!statm)
    return 0;
  long long pages = 0;
  if (std::fscanf(statm, "%lld", &pages) != 1)
    pages = 0;
  std::fclose(statm);
  return pages * sysconf(_SC_PAGESIZE);
}

void writeAll(int fd, const std::string &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += static_cast<size_t>(n);
  }
}

} // namespace

[[noreturn]] void runChildWork(const ChildWork &work,
                               const SandboxLimits &limits, int payloadFd,
                               int stderrFd) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  signal(SIGPIPE, SIG_DFL);
  ::dup2(stderrFd, STDERR_FILENO);
  ::dup2(stderrFd, STDOUT_FILENO); // whatever a variant prints stays out of
                                   // the tool's own output
  ::close(stderrFd);
  if (limits.memoryBytes > 0) {
    rlimit limit;
    limit.rlim_cur = limit.rlim_max =
        static_cast<rlim_t>(mappedBytes() + limits.memoryBytes);
    setrlimit(RLIMIT_AS, &limit);
  }
  std::string payload;
  try {
    payload = work();
  } catch (const std::bad_alloc &) {
    exitOnAllocationFailure();
  } catch (...) {
    std::fputs("gevo sandbox: the work threw an exception\n", stderr);
    std::fflush(stderr);
    _exit(3);
  }
  writeAll(payloadFd, payload);
  ::close(payloadFd);
  std::fflush(stderr);
  _exit(0);
}

void exitOnAllocationFailure() {
  static const char message[] = "gevo sandbox: allocation failed\n";
  ssize_t ignored = ::write(STDERR_FILENO, message, sizeof(message) - 1);
  (void)ignored;
  _exit(kOutOfMemoryExitCode);
}

std::string ChildResult::describe() const {
  switch (ending) {
  case Ending::Exited:
    return absl::StrCat("exit ", exitCode);
  case Ending::Signaled:
    return absl::StrCat("signal ", signal, " (", strsignal(signal), ")");
  case Ending::TimedOut:
    return absl::StrFormat("timeout after %.1f s", wallMs / 1000);
  case Ending::OutOfMemory:
    return "out of memory";
  case Ending::ForkFailed:
    return "fork failed";
  }
  return "?";
}

struct SandboxPool::Running {
  pid_t pid = -1;
  int payloadFd = -1;
  int stderrFd = -1;
  Clock::time_point start;
  Clock::time_point deadline;
  bool hasDeadline = false;
  ChildResult result;
  std::function<void(ChildResult)> done;
};

SandboxPool::SandboxPool(int workers, SandboxLimits limits)
    : workers(std::max(1, workers)), limits(limits) {}

SandboxPool::~SandboxPool() {
  for (Running *child : running) {
    ::kill(child->pid, SIGKILL);
    ::waitpid(child->pid, nullptr, 0);
    if (child->payloadFd >= 0)
      ::close(child->payloadFd);
    if (child->stderrFd >= 0)
      ::close(child->stderrFd);
    delete child;
  }
}

void SandboxPool::submit(ChildWork work,
                         std::function<void(ChildResult)> done) {
  start(
      [&](int payloadFd, int stderrFd, std::string &) {
        std::fflush(stdout);
        std::fflush(stderr);
        pid_t pid = ::fork();
        if (pid == 0)
          runChildWork(work, limits, payloadFd, stderrFd);
        return pid;
      },
      std::move(done));
}

void SandboxPool::submitVia(ForkServer &server, const std::string &request,
                            std::function<void(ChildResult)> done) {
  start(
      [&](int payloadFd, int stderrFd, std::string &why) -> pid_t {
        absl::StatusOr<pid_t> pid =
            server.launch(request, limits, payloadFd, stderrFd);
        if (pid.ok())
          return *pid;
        why = std::string(pid.status().message());
        return -1;
      },
      std::move(done));
}

void SandboxPool::start(
    const std::function<pid_t(int, int, std::string &)> &launch,
    std::function<void(ChildResult)> done) {
  while (static_cast<int>(running.size()) >= workers)
    serviceOnce();
  auto forkFailed = [&](std::string why) {
    ChildResult failed;
    failed.ending = ChildResult::Ending::ForkFailed;
    failed.stderrTail = std::move(why);
    done(std::move(failed));
  };
  int payloadPipe[2], stderrPipe[2];
  if (::pipe2(payloadPipe, O_CLOEXEC) != 0)
    return forkFailed("pipe");
  if (::pipe2(stderrPipe, O_CLOEXEC) != 0) {
    ::close(payloadPipe[0]);
    ::close(payloadPipe[1]);
    return forkFailed("pipe");
  }
  auto start = Clock::now();
  std::string why;
  pid_t pid = launch(payloadPipe[1], stderrPipe[1], why);
  ::close(payloadPipe[1]);
  ::close(stderrPipe[1]);
  if (pid < 0) {
    ::close(payloadPipe[0]);
    ::close(stderrPipe[0]);
    return forkFailed(why);
  }
  auto *child = new Running();
  child->pid = pid;
  child->payloadFd = payloadPipe[0];
  child->stderrFd = stderrPipe[0];
  child->start = start;
  child->hasDeadline = limits.timeoutSeconds > 0;
  child->deadline = start + std::chrono::microseconds(static_cast<int64_t>(
                                limits.timeoutSeconds * 1e6));
  child->done = std::move(done);
  running.push_back(child);
}

namespace {
/// Appends to the child's payload or stderr tail from whichever pipe has
/// data; with `toEnd`, reads until both pipes are closed (the child has
/// exited, so this cannot block for long).
template <typename Child> void readFrom(Child &child, bool toEnd) {
  char buffer[65536];
  for (int *fd : {&child.payloadFd, &child.stderrFd}) {
    while (*fd >= 0) {
      pollfd probe{*fd, POLLIN, 0};
      if (!toEnd && ::poll(&probe, 1, 0) <= 0)
        break;
      ssize_t n = ::read(*fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        ::close(*fd);
        *fd = -1;
        break;
      }
      if (fd == &child.payloadFd) {
        child.result.payload.append(buffer, static_cast<size_t>(n));
      } else {
        std::string &tail = child.result.stderrTail;
        tail.append(buffer, static_cast<size_t>(n));
        if (tail.size() > 2 * kStderrTailBytes)
          tail.erase(0, tail.size() - kStderrTailBytes);
      }
      if (!toEnd)
        break;
    }
  }
}
} // namespace

void SandboxPool::readAvailable(Running &child, bool toEnd) {
  readFrom(child, toEnd);
}

void SandboxPool::drain(Running &child) { readFrom(child, true); }

bool SandboxPool::reap(Running &child, int &status, int options) {
  rusage usage{};
  if (::wait4(child.pid, &status, options, &usage) != child.pid)
    return false;
  auto ms = [](const timeval &t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  child.result.systemMs = ms(usage.ru_stime);
  child.result.cpuMs = ms(usage.ru_utime) + child.result.systemMs;
  return true;
}

void SandboxPool::serviceOnce(int maxWaitMs) {
  if (running.empty())
    return;
  auto now = Clock::now();
  int timeoutMs = std::max(0, maxWaitMs);
  for (Running *child : running)
    if (child->hasDeadline)
      timeoutMs = std::min<int>(
          timeoutMs,
          std::max<int>(0,
                        static_cast<int>(msBetween(now, child->deadline)) + 1));
  std::vector<pollfd> fds;
  for (Running *child : running) {
    for (int fd : {child->payloadFd, child->stderrFd})
      if (fd >= 0)
        fds.push_back({fd, POLLIN, 0});
  }
  if (!fds.empty())
    ::poll(fds.data(), fds.size(), timeoutMs);
  std::vector<Running *> stillRunning;
  std::vector<Running *> finished;
  for (Running *child : running) {
    // Read whatever is readable now (fds are blocking: read only on POLLIN).
    readAvailable(*child, /*toEnd=*/false);
    now = Clock::now();
    int status = 0;
    bool ended = false;
    if (child->payloadFd < 0 && child->stderrFd < 0) {
      reap(*child, status, 0);
      ended = true;
    } else if (reap(*child, status, WNOHANG)) {
      ended = true;
      drain(*child); // what it wrote just before exiting
    } else if (child->hasDeadline && now >= child->deadline) {
      ::kill(child->pid, SIGKILL);
      reap(*child, status, 0);
      child->result.ending = ChildResult::Ending::TimedOut;
      ended = true;
    }
    if (!ended) {
      stillRunning.push_back(child);
      continue;
    }
    child->result.wallMs = msBetween(child->start, now);
    if (child->result.ending != ChildResult::Ending::TimedOut) {
      if (WIFSIGNALED(status)) {
        child->result.ending = ChildResult::Ending::Signaled;
        child->result.signal = WTERMSIG(status);
      } else if (WIFEXITED(status)) {
        child->result.exitCode = WEXITSTATUS(status);
        child->result.ending = child->result.exitCode == kOutOfMemoryExitCode
                                   ? ChildResult::Ending::OutOfMemory
                                   : ChildResult::Ending::Exited;
      }
    }
    if (child->result.stderrTail.size() > kStderrTailBytes)
      child->result.stderrTail.erase(0, child->result.stderrTail.size() -
                                            kStderrTailBytes);
    finished.push_back(child);
  }
  running = std::move(stillRunning);
  for (Running *child : finished) {
    if (child->payloadFd >= 0)
      ::close(child->payloadFd);
    if (child->stderrFd >= 0)
      ::close(child->stderrFd);
    if (!child->result.returned())
      child->result.payload.clear();
    child->done(std::move(child->result));
    delete child;
  }
}

void SandboxPool::wait() {
  while (!running.empty())
    serviceOnce();
}

ChildResult runIsolated(ChildWork work, SandboxLimits limits) {
  SandboxPool pool(1, limits);
  ChildResult out;
  pool.submit(std::move(work),
              [&](ChildResult result) { out = std::move(result); });
  pool.wait();
  return out;
}

} // namespace gevo
