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

std::vector<Individual> drawIndividuals(const AlgorithmContext &context,
                                        int count, int maxEdits) {
  std::vector<Individual> drawn(static_cast<size_t>(std::max(0, count)));
  if (!context.breed) {
    for (Individual &individual : drawn)
      individual = drawIndividual(context, maxEdits);
    return drawn;
  }
  std::vector<Recipe> recipes(drawn.size());
  for (Recipe &recipe : recipes) {
    recipe.kind = Recipe::Kind::Random;
    recipe.length = std::uniform_int_distribution<int>(
        1, std::max(1, maxEdits))(context.rng);
    recipe.seed = context.rng();
  }
  std::vector<Bred> bred = context.breed(recipes);
  for (size_t i = 0; i < drawn.size() && i < bred.size(); ++i) {
    drawn[i].edits = std::move(bred[i].edits);
    if (!drawn[i].edits.empty())
      drawn[i].newestKind = drawn[i].edits.back().kind;
  }
  return drawn;
}

} // namespace gevo
