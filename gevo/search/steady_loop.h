//===- steady_loop.h - Steady-state search: a child per free worker -------===//
//
// The steady-state schedule: as many children in flight as the workbench
// has slots (its workers, or a remote runner's); whenever one arrives
// measured, the algorithm takes it into the population (survivor selection
// on arrival), the run records it, and a new child is bred from the
// population as it is then. No generation barrier. With one slot the
// children follow one another, so the sequence is a function of the seed.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_STEADY_LOOP_H
#define GEVO_SEARCH_STEADY_LOOP_H

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "absl/status/status.h"
#include "gevo/search/algorithm.h"
#include "gevo/search/batch_evaluator.h"
#include "gevo/support/stopwatch.h"

namespace gevo {

/// What the loop asks of the run around it.
struct SteadyHooks {
  /// Whether another child may start now (generations and budget left).
  std::function<bool()> mayStart;
  /// The generation a child bred now counts for (the algorithm refits its
  /// pre-screen once per generation).
  std::function<int()> breedingGeneration;
  /// `child` arrived measured and the population has taken it: record it
  /// (history, archive, checkpoint); an error ends the loop.
  std::function<absl::Status(Individual &child)> arrived;
};

class SteadyLoop {
public:
  SteadyLoop(SearchAlgorithm &algorithm, BatchEvaluator &evaluator,
             std::vector<Individual> &population)
      : algorithm(algorithm), evaluator(evaluator), population(population) {}

  /// Starts `pending` (a checkpoint's children in flight) and then breeds
  /// while `hooks.mayStart()`; returns once every child started arrived.
  absl::Status run(std::vector<Individual> pending, const SteadyHooks &hooks);
  /// The children started and not arrived, oldest first.
  std::vector<Individual> inFlight() const;
  /// Children started by this loop (pending ones included).
  int64_t started() const { return nextId; }
  /// Mean seconds from a child's start to its arrival (0 before one).
  double meanSecondsToArrival() const { return meanSeconds; }

private:
  void start(Individual child);

  SearchAlgorithm &algorithm;
  BatchEvaluator &evaluator;
  std::vector<Individual> &population;
  struct Flying {
    Individual child;
    SteadyClock::time_point since;
  };
  std::map<int64_t, Flying> flying;
  std::deque<Individual> arrivals;
  int64_t nextId = 0;
  double meanSeconds = 0;
};

} // namespace gevo

#endif // GEVO_SEARCH_STEADY_LOOP_H
