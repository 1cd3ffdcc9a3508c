//===- run_limit.cc - Racing's run limit inside a sandboxed child ---------===//

#include "gevo/eval/run_limit.h"

#include <csignal>
#include <cstdint>
#include <ctime>

#include <sys/time.h>
#include <unistd.h>

#include "gevo/eval/race.h"

namespace gevo {
namespace {

extern "C" void endAtRunLimit(int) { _exit(kRunLimitExitCode); }

bool setProfTimer(double ms) {
  itimerval timer{};
  auto us = static_cast<int64_t>(ms * 1000);
  timer.it_value.tv_sec = us / 1000000;
  timer.it_value.tv_usec = us % 1000000;
  return ::setitimer(ITIMER_PROF, &timer, nullptr) == 0;
}

} // namespace

double processCpuMs() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

RunLimit::RunLimit(double limitMs, bool stop)
    : limitMs(limitMs), startMs(processCpuMs()) {
  if (limitMs <= 0 || !stop)
    return;
  struct sigaction action{};
  action.sa_handler = endAtRunLimit;
  sigemptyset(&action.sa_mask);
  armed = ::sigaction(SIGPROF, &action, nullptr) == 0 && setProfTimer(limitMs);
}

RunLimit::~RunLimit() {
  if (armed)
    setProfTimer(0);
}

bool RunLimit::passed() const {
  return limitMs > 0 && processCpuMs() - startMs > limitMs;
}

} // namespace gevo
