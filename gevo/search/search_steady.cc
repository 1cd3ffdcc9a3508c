//===- search_steady.cc - The search run's steady-state schedule ----------===//
//
// SearchRun::runSteady(): after generation 0, a child per free slot, each
// selected and recorded on arrival (steady_loop.h). A generation is
// `population` arrivals: history.csv labels a child by the generation it
// arrived in, and the checkpoint (with the children still in flight) is
// written when one completes (unless the last was written too recently:
// SearchRun::checkpointDue()), so that a resumed run drops exactly the rows
// the checkpoint does not hold and starts the children in flight again.

#include <chrono>
#include <optional>

#include "gevo/search/search_run.h"
#include "gevo/search/steady_loop.h"
#include "gevo/support/status_macros.h"

namespace gevo {

absl::Status SearchRun::runSteady() {
  SteadyLoop loop(*algorithm, *evaluator, state.population);
  const int64_t size = config.algorithm.population;
  // Children of the generations done; the checkpoint's in-flight ones are
  // the next ones started.
  const int64_t before = state.generation * size;
  std::vector<Individual> pending = std::move(state.pending);
  state.pending.clear();
  int64_t arrivedHere = 0; // in the generation in progress
  bool behind = false;     // the last generation done has no checkpoint
  SteadyHooks hooks;
  // The front's re-measurement, estimated again at most once a second: the
  // estimate walks the whole archive, and a start comes every few ms.
  double reserve = 0;
  std::optional<Clock::time_point> reserved;
  hooks.mayStart = [&] {
    if (before + loop.started() >= config.generations * size)
      return false;
    if (config.budgetSeconds <= 0)
      return true;
    if (!reserved || Clock::now() - *reserved > std::chrono::seconds(1)) {
      reserve = remeasureReserve();
      reserved = Clock::now();
    }
    // A child started now arrives after about the mean time to arrival.
    double elapsed = elapsedBefore + secondsSince(started);
    return elapsed + loop.meanSecondsToArrival() + reserve <=
           config.budgetSeconds;
  };
  hooks.breedingGeneration = [&] {
    return static_cast<int>((before + loop.started()) / size) + 1;
  };
  hooks.arrived = [&](Individual &child) -> absl::Status {
    child.generation = state.generation + 1;
    recordMeasured(child);
    history.flush();
    if (!quiet)
      progress.update([this] { return progressState(); });
    if (++arrivedHere < size)
      return absl::OkStatus();
    arrivedHere = 0;
    ++state.generation;
    probe->endGeneration();
    behind = !checkpointDue();
    if (!behind) {
      state.pending = loop.inFlight();
      absl::Status saved = saveCheckpoint();
      state.pending.clear();
      GEVO_RETURN_IF_ERROR(saved);
    }
    GEVO_RETURN_IF_ERROR(appendOperatorWeights());
    if (!quiet)
      progress.generationDone(progressState());
    return absl::OkStatus();
  };
  GEVO_RETURN_IF_ERROR(loop.run(std::move(pending), hooks));
  if (arrivedHere == 0) // the last generation's checkpoint, if it was spaced
    return behind ? saveCheckpoint() : absl::OkStatus();
  // Stopped by the budget inside a generation: it counts as done, so that
  // a resumed run keeps its rows as the checkpoint keeps its variants.
  ++state.generation;
  probe->endGeneration();
  return saveCheckpoint();
}

} // namespace gevo
