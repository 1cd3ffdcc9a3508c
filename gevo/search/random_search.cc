//===- random_search.cc - Random edit lists, the honest baseline ----------===//

#include "gevo/search/random_search.h"

#include <algorithm>

#include "gevo/search/variation.h"

namespace gevo {

std::vector<Individual> randomBatch(const AlgorithmContext &context, int size) {
  std::vector<Individual> batch(size);
  for (Individual &individual : batch)
    individual = drawIndividual(context, context.settings.maxRandomEdits);
  return batch;
}

std::vector<Individual>
RandomSearch::initialPopulation(const EvaluateBatch &evaluate) {
  return evolve({}, 0, evaluate);
}

std::vector<Individual> RandomSearch::evolve(std::vector<Individual>,
                                             int generation,
                                             const EvaluateBatch &evaluate) {
  std::vector<Individual> batch =
      randomBatch(context, context.settings.population);
  evaluate(batch, generation);
  return batch;
}

} // namespace gevo
