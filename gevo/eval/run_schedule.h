//===- run_schedule.h - The order of a child's timed runs -----------------===//
//
// Which runs a sandboxed child makes of a variant, and in what order: warm-up
// runs, then timed ones; or, for noise control, timed pairs with the
// unmodified program, the two programs strictly alternating so that no run
// follows one of the same program (which would find its data in the caches).
// Shared by the CPU and the GPU target's children, which differ only in how
// one run is made and timed.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_RUN_SCHEDULE_H
#define GEVO_EVAL_RUN_SCHEDULE_H

#include <functional>
#include <optional>

#include "absl/status/status.h"

namespace gevo {

struct RunSchedule {
  int warmup = 0;
  int repeats = 1;
  /// > 0: after `warmup` runs of both, this many timed pairs of the variant
  /// and the unmodified program instead of `repeats` runs of the variant.
  int interleavedPairs = 0;
  /// Racing (race.h): with pairs, called after the warm-up runs (0) and after
  /// each timed pair (the pairs made so far); false ends the schedule there,
  /// which is not a failure. Empty: every run is made.
  std::function<bool(int pairsDone)> keepGoing;
  /// Whether the child's last run before this schedule was the variant's
  /// (racing's first run): the pairs then start with the other program.
  bool variantRanLast = false;
  /// With pairs, when set: the unmodified program runs in the warm-up pairs
  /// and the first timed pair only, and this runs in its place in every
  /// later pair (racing's short variants: an eviction of the caches,
  /// cache_eviction.h); each pair's ratio is then read against that one
  /// timed run (pairRatios).
  std::function<void()> standInForBaseline;
};

/// A failed run: its status, and whether it was the unmodified program's.
struct ScheduleFailure {
  absl::Status status;
  bool baseline = false;
};

/// Makes the runs of `schedule`; `runVariant(timed)` and `runBaseline(timed)`
/// make one run each (recording its time when `timed`). Stops at the first
/// failure.
std::optional<ScheduleFailure>
runSchedule(const RunSchedule &schedule,
            const std::function<absl::Status(bool timed)> &runVariant,
            const std::function<absl::Status(bool timed)> &runBaseline);

} // namespace gevo

#endif // GEVO_EVAL_RUN_SCHEDULE_H
