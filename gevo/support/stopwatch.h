//===- stopwatch.h - Elapsed wall-clock time, in the units we report ------===//
#ifndef GEVO_SUPPORT_STOPWATCH_H
#define GEVO_SUPPORT_STOPWATCH_H

#include <chrono>

namespace gevo {

using SteadyClock = std::chrono::steady_clock;

inline double millisecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - start)
      .count();
}

inline double secondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

} // namespace gevo

#endif // GEVO_SUPPORT_STOPWATCH_H
