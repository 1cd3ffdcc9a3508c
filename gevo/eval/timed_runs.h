//===- timed_runs.h - A compiled variant's runs, made and timed
//------------===//
//
// The one schedule path of every evaluation: the runs RunSchedule orders
// (run_schedule.h) of a variant compiled by a Target, and of the unmodified
// program beside it for interleaved pairs, on placed inputs, with each timed
// run's time as the Target measures it. An evaluation by hand
// (evaluator.cc) and a session's children (session_child.cc) both call it.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_TIMED_RUNS_H
#define GEVO_EVAL_TIMED_RUNS_H

#include <cstdint>
#include <optional>
#include <vector>

#include "gevo/eval/run_schedule.h"
#include "gevo/eval/target.h"

namespace gevo {

struct TimedRuns {
  /// The last run's results, of the variant and of the unmodified program.
  std::vector<HostTensor> results, baselineResults;
  /// The unmodified program's results from its first run here (what
  /// baselineResults is compared with when no run came before the schedule).
  std::vector<HostTensor> firstBaselineResults;
  /// Each timed run's time (TimedRun::ms) and wall time; the unmodified
  /// program's timed runs.
  std::vector<double> ms, hostMs, baselineMs;
  /// Kernel launches in the variant's last run.
  int64_t launches = 0;
};

/// Makes the runs of `schedule` into `out`; `baseline` may be null when the
/// schedule has no pairs. Stops at the first failure.
std::optional<ScheduleFailure> makeTimedRuns(const RunSchedule &schedule,
                                             const CompiledVariant &variant,
                                             const CompiledVariant *baseline,
                                             const PlacedInputs &inputs,
                                             TimedRuns &out);

} // namespace gevo

#endif // GEVO_EVAL_TIMED_RUNS_H
