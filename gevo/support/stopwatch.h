//===- stopwatch.h - Elapsed wall-clock time, in the units we report ------===//
#ifndef GEVO_SUPPORT_STOPWATCH_H
#define GEVO_SUPPORT_STOPWATCH_H

#include <chrono>
#include <ctime>

namespace gevo {

using SteadyClock = std::chrono::steady_clock;

inline double millisecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - start)
      .count();
}

inline double secondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

/// CPU time this process has used, in milliseconds: a figure that other
/// processes' load on the machine changes little.
inline double processCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

} // namespace gevo

#endif // GEVO_SUPPORT_STOPWATCH_H
