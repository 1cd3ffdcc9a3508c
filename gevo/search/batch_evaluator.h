//===- batch_evaluator.h - A generation's individuals, measured -----------===//
//
// The search's side of measuring: hands a generation's edit lists to the
// workbench (which builds, de-duplicates, looks up the cache and runs the
// rest in parallel), gives each individual the edits that applied, its key
// and its measurement, and keeps the counts the checkpoint and progress line
// show. With paired runs each variant is timed against the unmodified
// program in its own child, and its run time is put on the scale of the
// unmodified program's start-of-run measurement.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_BATCH_EVALUATOR_H
#define GEVO_SEARCH_BATCH_EVALUATOR_H

#include <functional>
#include <vector>

#include "gevo/search/individual.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

/// A measurement from interleaved pairs with its median run time replaced by
/// its run-time ratio times `referenceMs`: the run time it would have had
/// beside a reference measured at that moment. Unchanged when it failed or
/// has no ratio (a cached plain measurement, the unmodified program's).
Measurement onReferenceScale(Measurement m, double referenceMs);

class BatchEvaluator {
public:
  /// `pairedRuns` > 0: each variant runs that many pairs interleaved with
  /// the unmodified program (SearchConfig::pairedRuns).
  explicit BatchEvaluator(Workbench &bench, int pairedRuns = 0)
      : bench(bench), pairedRuns(pairedRuns) {}

  /// Measures every individual (its edits replaced by the ones that
  /// applied). `onMeasured` is called after each, for progress output.
  void evaluate(std::vector<Individual> &batch,
                const std::function<void()> &onMeasured = {});

  EvaluationCounts counts;

private:
  Workbench &bench;
  int pairedRuns;
};

} // namespace gevo

#endif // GEVO_SEARCH_BATCH_EVALUATOR_H
