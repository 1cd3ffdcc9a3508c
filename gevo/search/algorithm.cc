//===- algorithm.cc - How a search moves: population in, population out ---===//

#include "gevo/search/algorithm.h"

#include <algorithm>

#include "gevo/search/nsga2_search.h"
#include "gevo/search/random_search.h"
#include "gevo/search/variation.h"

namespace gevo {

std::unique_ptr<SearchAlgorithm> makeAlgorithm(AlgorithmContext context) {
  switch (context.config.algorithm) {
  case Algorithm::Random:
    return std::make_unique<RandomSearch>(context);
  case Algorithm::Nsga2:
    break;
  }
  return std::make_unique<Nsga2Search>(context);
}

Individual drawIndividual(const AlgorithmContext &context, int maxEdits) {
  int length =
      std::uniform_int_distribution<int>(1, std::max(1, maxEdits))(context.rng);
  Individual individual;
  individual.edits = context.variation.randomList(length, context.rng);
  if (!individual.edits.empty())
    individual.newestKind = individual.edits.back().kind;
  return individual;
}

} // namespace gevo
