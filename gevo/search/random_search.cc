//===- random_search.cc - Random edit lists, the honest baseline ----------===//

#include "gevo/search/random_search.h"

#include <algorithm>

#include "gevo/search/variation.h"

namespace gevo {

std::vector<Individual> randomBatch(const AlgorithmContext &context, int size) {
  return drawIndividuals(context, size, context.settings.maxRandomEdits);
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

Individual RandomSearch::breedOne(const std::vector<Individual> &,
                                  int generation) {
  Individual child = std::move(
      drawIndividuals(context, 1, context.settings.maxRandomEdits).front());
  child.generation = generation;
  return child;
}

std::vector<Individual> RandomSearch::arrive(std::vector<Individual> population,
                                             Individual child) {
  population.push_back(std::move(child));
  size_t keep = std::max(1, context.settings.population);
  if (population.size() > keep)
    population.erase(population.begin(),
                     population.end() - static_cast<long>(keep));
  return population;
}

} // namespace gevo
