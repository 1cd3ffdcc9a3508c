//===- batch_evaluator.h - A generation's individuals, measured -----------===//
//
// The search's side of measuring: hands a generation's edit lists to the
// workbench (which builds, de-duplicates, looks up the cache and runs the
// rest in parallel), gives each individual the edits that applied, its key
// and its measurement, and keeps the counts the checkpoint and progress line
// show.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_BATCH_EVALUATOR_H
#define GEVO_SEARCH_BATCH_EVALUATOR_H

#include <functional>
#include <vector>

#include "gevo/search/individual.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

class BatchEvaluator {
public:
  explicit BatchEvaluator(Workbench &bench) : bench(bench) {}

  /// Measures every individual (its edits replaced by the ones that
  /// applied). `onMeasured` is called after each, for progress output.
  void evaluate(std::vector<Individual> &batch,
                const std::function<void()> &onMeasured = {});

  EvaluationCounts counts;

private:
  Workbench &bench;
};

} // namespace gevo

#endif // GEVO_SEARCH_BATCH_EVALUATOR_H
