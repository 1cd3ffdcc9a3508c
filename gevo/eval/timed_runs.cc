//===- timed_runs.cc - A compiled variant's runs, made and timed ----------===//

#include "gevo/eval/timed_runs.h"

namespace gevo {

std::optional<ScheduleFailure> makeTimedRuns(const RunSchedule &schedule,
                                             const CompiledVariant &variant,
                                             const CompiledVariant *baseline,
                                             const PlacedInputs &inputs,
                                             TimedRuns &out) {
  auto runVariant = [&](bool timed) -> absl::Status {
    absl::StatusOr<TimedRun> run = variant.run(inputs);
    if (!run.ok())
      return run.status();
    if (timed) {
      out.ms.push_back(run->ms);
      out.hostMs.push_back(run->hostMs);
    }
    out.results = std::move(run->results);
    out.launches = run->launches;
    return absl::OkStatus();
  };
  auto runBaseline = [&](bool timed) -> absl::Status {
    absl::StatusOr<TimedRun> run = baseline->run(inputs);
    if (!run.ok())
      return run.status();
    if (timed)
      out.baselineMs.push_back(run->ms);
    if (out.firstBaselineResults.empty())
      out.firstBaselineResults = run->results;
    out.baselineResults = std::move(run->results);
    return absl::OkStatus();
  };
  return runSchedule(schedule, runVariant, runBaseline);
}

} // namespace gevo
