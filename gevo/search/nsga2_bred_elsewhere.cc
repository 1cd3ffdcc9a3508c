//===- nsga2_bred_elsewhere.cc - NSGA-II's children bred from recipes -----===//
//
// Nsga2Search::offspringBredElsewhere(): a generation's children when an
// MPI search's ranks breed them (AlgorithmContext::breed). The search
// process draws what needs no module (tournaments, crossover, whether to
// mutate, a seed per child), so its serial work per child is selection and
// a recipe; the ranks mutate, check, build, key and cost each child in
// parallel.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cmath>

#include "gevo/ir/mutation_support.h"
#include "gevo/search/nsga2.h"
#include "gevo/search/nsga2_search.h"
#include "gevo/search/random_search.h"

namespace gevo {

void Nsga2Search::planChildren(const Individual &a, const Individual &b,
                               const std::vector<double> &weights, size_t count,
                               bool withCost, std::vector<Recipe> &recipes) {
  const AlgorithmSettings &config = context.settings;
  std::mt19937_64 &rng = context.rng;
  std::pair<std::vector<Edit>, std::vector<Edit>> lists = {a.edits, b.edits};
  if (chance(config.crossoverRate, rng))
    lists = crossoverLists(a.edits, b.edits, rng);
  size_t planned = 0;
  for (std::vector<Edit> *list : {&lists.first, &lists.second}) {
    if (planned++ >= count)
      break;
    Recipe recipe;
    recipe.base = *list;
    // As breed(): a child that repeats a parent is always mutated.
    bool repeatsParent = *list == a.edits || *list == b.edits;
    recipe.mutate = repeatsParent || chance(config.mutationRate, rng);
    recipe.removeRate = repeatsParent ? 0.0 : config.removeRate;
    recipe.retuneRate = config.retuneRate;
    recipe.weights = weights;
    recipe.seed = rng();
    recipe.withCost = withCost;
    recipes.push_back(std::move(recipe));
  }
}

Individual Nsga2Search::bredChild(const Recipe &recipe, Bred &bred) {
  Individual individual;
  individual.edits = std::move(bred.edits);
  bool grew = recipe.kind == Recipe::Kind::Random ||
              individual.edits.size() > recipe.base.size();
  if (grew && !individual.edits.empty())
    individual.newestKind = individual.edits.back().kind;
  return individual;
}

Individual Nsga2Search::breedOneElsewhere(const Individual &a,
                                          const Individual &b,
                                          const std::vector<double> &weights,
                                          bool screening) {
  std::vector<Recipe> recipes;
  for (int round = 0; round < (screening ? context.settings.screen : 1);
       ++round)
    planChildren(a, b, weights, 1, screening, recipes);
  std::vector<Bred> bred = context.breed(recipes);
  bred.resize(recipes.size());
  breedNovel(recipes, 0, bred);
  std::vector<Individual> candidates;
  std::vector<double> costs;
  for (size_t i = 0; i < recipes.size(); ++i) {
    costs.push_back(bred[i].staticCost);
    candidates.push_back(bredChild(recipes[i], bred[i]));
  }
  if (screening) {
    candidates = screen(std::move(candidates), costs, 1);
    predicted.clear(); // no per-generation report in this schedule
  }
  return std::move(candidates.front());
}

void Nsga2Search::breedNovel(const std::vector<Recipe> &recipes, size_t from,
                             std::vector<Bred> &bred) {
  if (!context.isNewKey)
    return;
  std::vector<size_t> pending;
  for (size_t i = from; i < recipes.size(); ++i)
    pending.push_back(i);
  // In the recipes' order, round after round: the same children whoever
  // breeds them. A child bred again mutates its list as drawn (no removal).
  for (int tries = 0; tries <= kNoveltyTries && !pending.empty(); ++tries) {
    std::vector<size_t> again;
    std::vector<Recipe> retry;
    for (size_t i : pending) {
      if (context.isNewKey(bred[i].key) || tries == kNoveltyTries)
        continue;
      Recipe recipe = recipes[i];
      recipe.mutate = true;
      recipe.removeRate = 0;
      recipe.seed = context.rng();
      again.push_back(i);
      retry.push_back(std::move(recipe));
    }
    if (retry.empty())
      break;
    std::vector<Bred> more = context.breed(retry);
    for (size_t k = 0; k < again.size() && k < more.size(); ++k)
      bred[again[k]] = std::move(more[k]);
    pending = std::move(again);
  }
}

std::vector<Individual>
Nsga2Search::offspringBredElsewhere(const std::vector<Individual> &parents) {
  const AlgorithmSettings &config = context.settings;
  std::mt19937_64 &rng = context.rng;
  Ranking ranking = rank(parents);
  int immigrants = static_cast<int>(
      std::lround(immigrantRate(parents, ranking) * config.population));
  std::vector<double> weights = weightsFor(parents, ranking);
  bool screening = config.screen > 1 && context.measured;
  if (screening)
    surrogate.fit(context.measured());
  // The immigrants' recipes first, then per pair of parents its groups of
  // candidates: [first, first + size) for `slots` children.
  std::vector<Recipe> recipes;
  for (int i = 0; i < immigrants; ++i) {
    Recipe recipe;
    recipe.kind = Recipe::Kind::Random;
    recipe.length = std::uniform_int_distribution<int>(
        1, std::max(1, config.maxRandomEdits))(rng);
    recipe.seed = rng();
    recipes.push_back(std::move(recipe));
  }
  struct Group {
    size_t first, size, slots;
  };
  std::vector<Group> groups;
  for (int planned = immigrants; planned < config.population;) {
    size_t slots = std::min<size_t>(2, config.population - planned);
    const Individual &a = parents[tournament(ranking, rng)];
    const Individual &b = parents[tournament(ranking, rng)];
    Group group{recipes.size(), 0, slots};
    for (int round = 0; round < (screening ? config.screen : 1); ++round)
      planChildren(a, b, weights, screening ? 2 : slots, screening, recipes);
    group.size = recipes.size() - group.first;
    groups.push_back(group);
    planned += static_cast<int>(slots);
  }
  std::vector<Bred> bred = context.breed(recipes);
  bred.resize(recipes.size());
  breedNovel(recipes, static_cast<size_t>(immigrants), bred);
  auto child = [&](size_t i) { return bredChild(recipes[i], bred[i]); };
  std::vector<Individual> children;
  for (int i = 0; i < immigrants; ++i)
    children.push_back(child(static_cast<size_t>(i)));
  predicted.assign(children.size(), std::nullopt);
  candidatesBred = 0;
  for (const Group &group : groups) {
    std::vector<Individual> candidates;
    std::vector<double> costs;
    for (size_t i = group.first; i < group.first + group.size; ++i) {
      costs.push_back(bred[i].staticCost);
      candidates.push_back(child(i));
    }
    if (screening) {
      candidates = screen(std::move(candidates), costs, group.slots);
    } else {
      candidates.resize(std::min(candidates.size(), group.slots));
      predicted.resize(predicted.size() + candidates.size());
    }
    for (Individual &member : candidates)
      children.push_back(std::move(member));
  }
  return children;
}

} // namespace gevo
