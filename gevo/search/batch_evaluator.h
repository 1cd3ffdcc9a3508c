//===- batch_evaluator.h - Evaluate a generation: build, cache, sandbox ---===//
//
// Turns edit lists into measured individuals: builds each variant (dropping
// edits that no longer apply), keys it by its printed form, answers from the
// fitness cache where it can (and evaluates equal variants of one batch
// once), and runs the rest in the sandbox pool in parallel. Results do not
// depend on the order children finish in, nor on how many run at once.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_BATCH_EVALUATOR_H
#define GEVO_SEARCH_BATCH_EVALUATOR_H

#include <functional>
#include <map>
#include <vector>

#include "gevo/eval/sandbox.h"
#include "gevo/eval/variant_session.h"
#include "gevo/search/fitness_cache.h"
#include "gevo/search/individual.h"
#include "gevo/search/variation.h"

namespace gevo {

class BatchEvaluator {
public:
  BatchEvaluator(EvaluationSession &session, SandboxPool &pool,
                 FitnessCache &cache, const Variation &variation)
      : session(session), pool(pool), cache(cache), variation(variation) {}

  /// Measures every individual (its edits replaced by the ones that
  /// applied). `onMeasured` is called after each, for progress output.
  void evaluate(std::vector<Individual> &batch,
                const std::function<void()> &onMeasured = {});

  EvaluationCounts counts;

private:
  EvaluationSession &session;
  SandboxPool &pool;
  FitnessCache &cache;
  const Variation &variation;
};

} // namespace gevo

#endif // GEVO_SEARCH_BATCH_EVALUATOR_H
