//===- algorithm.cc - How a search moves: population in, population out ---===//

#include "gevo/search/algorithm.h"

#include <algorithm>

#include "gevo/search/variation.h"

namespace gevo {

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
