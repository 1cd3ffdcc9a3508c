//===- run_schedule.cc - The order of a child's timed runs ----------------===//

#include "gevo/eval/run_schedule.h"

namespace gevo {

std::optional<ScheduleFailure>
runSchedule(const RunSchedule &schedule,
            const std::function<absl::Status(bool timed)> &runVariant,
            const std::function<absl::Status(bool timed)> &runBaseline) {
  auto variant = [&](bool timed) -> std::optional<ScheduleFailure> {
    if (absl::Status s = runVariant(timed); !s.ok())
      return ScheduleFailure{std::move(s), false};
    return std::nullopt;
  };
  auto baseline = [&](bool timed) -> std::optional<ScheduleFailure> {
    if (absl::Status s = runBaseline(timed); !s.ok())
      return ScheduleFailure{std::move(s), true};
    return std::nullopt;
  };
  if (schedule.interleavedPairs <= 0) {
    for (int i = 0; i < schedule.warmup + schedule.repeats; ++i)
      if (auto failure = variant(i >= schedule.warmup))
        return failure;
    return std::nullopt;
  }
  for (int i = 0; i < schedule.warmup; ++i) {
    if (auto failure = variant(false))
      return failure;
    if (auto failure = baseline(false))
      return failure;
  }
  auto stopHere = [&](int pairsDone) {
    return schedule.keepGoing && !schedule.keepGoing(pairsDone);
  };
  if (stopHere(0))
    return std::nullopt;
  for (int i = 0; i < schedule.interleavedPairs; ++i) {
    // Alternate which goes first so that drift hits both alike.
    bool variantFirst = i % 2 == 0;
    if (auto failure = variantFirst ? variant(true) : baseline(true))
      return failure;
    if (auto failure = variantFirst ? baseline(true) : variant(true))
      return failure;
    if (i + 1 < schedule.interleavedPairs && stopHere(i + 1))
      return std::nullopt;
  }
  return std::nullopt;
}

} // namespace gevo
