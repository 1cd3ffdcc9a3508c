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
  // Never one program twice in a row: a run right after one of the same
  // program finds its data in the caches. On programs of a few ms, pairs
  // that alternated which went first (V B, B V, ...) read the variant a
  // fifth to a third slower in every other pair (§11's late-search traces),
  // a spread no interval decided on and a median that depended on how many
  // pairs were made; ordered alike, so that each run follows one of the
  // other program, the same trace's spread (median absolute deviation over
  // the median ratio, variants under 3 ms) fell from 0.13 to 0.07.
  bool variantFirst = !schedule.variantRanLast;
  auto other = [&](bool timed, bool standIn) -> std::optional<ScheduleFailure> {
    if (!standIn)
      return baseline(timed);
    schedule.standInForBaseline();
    return std::nullopt;
  };
  auto pair = [&](bool timed,
                  bool standIn = false) -> std::optional<ScheduleFailure> {
    if (auto failure = variantFirst ? variant(timed) : other(timed, standIn))
      return failure;
    return variantFirst ? other(timed, standIn) : variant(timed);
  };
  for (int i = 0; i < schedule.warmup; ++i)
    if (auto failure = pair(false))
      return failure;
  auto stopHere = [&](int pairsDone) {
    return schedule.keepGoing && !schedule.keepGoing(pairsDone);
  };
  if (stopHere(0))
    return std::nullopt;
  for (int i = 0; i < schedule.interleavedPairs; ++i) {
    if (auto failure = pair(true, i > 0 && schedule.standInForBaseline))
      return failure;
    if (i + 1 < schedule.interleavedPairs && stopHere(i + 1))
      return std::nullopt;
  }
  return std::nullopt;
}

} // namespace gevo
