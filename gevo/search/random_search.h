//===- random_search.h - Random edit lists, the honest baseline -----------===//
//
// Every generation is a fresh batch of random lists of 1..maxRandomEdits
// edits, measured; nothing is bred or selected. A search must beat this
// with the same number of evaluations to be worth its machinery.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_RANDOM_SEARCH_H
#define GEVO_SEARCH_RANDOM_SEARCH_H

#include "gevo/search/algorithm.h"

namespace gevo {

class RandomSearch : public SearchAlgorithm {
public:
  explicit RandomSearch(AlgorithmContext context) : context(context) {}
  std::vector<Individual>
  initialPopulation(const EvaluateBatch &evaluate) override;
  std::vector<Individual> evolve(std::vector<Individual> population,
                                 int generation,
                                 const EvaluateBatch &evaluate) override;
  Individual breedOne(const std::vector<Individual> &population,
                      int generation) override;
  /// The population is the last `population` arrivals.
  std::vector<Individual> arrive(std::vector<Individual> population,
                                 Individual child) override;

private:
  AlgorithmContext context;
};

/// `size` individuals drawn as random search draws them.
std::vector<Individual> randomBatch(const AlgorithmContext &context, int size);

} // namespace gevo

#endif // GEVO_SEARCH_RANDOM_SEARCH_H
