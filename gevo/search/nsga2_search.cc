//===- nsga2_search.cc - NSGA-II over edit lists --------------------------===//

#include "gevo/search/nsga2_search.h"

#include <cmath>
#include <set>

#include "gevo/ir/mutation_support.h"
#include "gevo/search/nsga2.h"
#include "gevo/search/random_search.h"
#include "gevo/search/variation.h"

namespace gevo {

std::vector<double>
Nsga2Search::objectivesOf(const Individual &individual) const {
  return objectiveValues(individual.measurement, context.objectives);
}

bool Nsga2Search::ranked(const Individual &individual) const {
  if (!individual.feasible())
    return false;
  std::vector<double> values = objectivesOf(individual);
  for (size_t k = 0; k < values.size() && k < context.bounds.size(); ++k)
    if (values[k] > context.bounds[k])
      return false;
  return true;
}

Ranking Nsga2Search::rank(const std::vector<Individual> &population) const {
  std::vector<Objectives> points;
  std::vector<bool> feasible;
  for (const Individual &individual : population) {
    points.push_back(objectivesOf(individual));
    feasible.push_back(ranked(individual));
  }
  return rankPopulation(points, feasible);
}

std::vector<double>
Nsga2Search::operatorWeights(const std::vector<Individual> &population) const {
  return weightsFor(population, rank(population));
}

std::vector<double>
Nsga2Search::weightsFor(const std::vector<Individual> &population,
                        const Ranking &ranking) const {
  const std::vector<EditKind> &kinds =
      context.variation.mutationOptions().kinds;
  if (kinds.size() < 2 || population.empty())
    return {};
  // One pseudo-count each, then one per edit of that kind in the first
  // front; a floor keeps every operator drawn now and then.
  std::vector<double> credit(kinds.size(), 1.0);
  for (size_t i = 0; i < population.size(); ++i) {
    if (ranking.rank[i] != 0 || !ranked(population[i]))
      continue;
    for (const Edit &edit : population[i].edits)
      for (size_t k = 0; k < kinds.size(); ++k)
        if (kinds[k] == edit.kind)
          credit[k] += 1;
  }
  double total = 0;
  for (double c : credit)
    total += c;
  double floor = 0.25 / kinds.size();
  std::vector<double> weights;
  for (double c : credit)
    weights.push_back(floor + (1 - floor * kinds.size()) * c / total);
  return weights;
}

double Nsga2Search::immigrantRate(const std::vector<Individual> &population,
                                  const Ranking &ranking) const {
  // Half as many once the front holds three members or more.
  int frontSize = 0;
  for (size_t i = 0; i < population.size(); ++i)
    frontSize += ranking.rank[i] == 0 && ranked(population[i]);
  double rate = context.settings.immigrantRate;
  return frontSize >= 3 ? rate / 2 : rate;
}

std::vector<Individual>
Nsga2Search::initialPopulation(const EvaluateBatch &evaluate) {
  const AlgorithmSettings &config = context.settings;
  std::vector<Individual> population(config.population);
  size_t seeded = 0;
  for (std::vector<Edit> &list :
       context.variation.seedLists(config.rateSeeds, config.pruneSeeds)) {
    if (seeded >= population.size() / 2)
      break;
    // Several ops reach one dimension: one list per variant.
    if (context.isNew && !context.isNew(list))
      continue;
    population[seeded].newestKind = list.back().kind;
    population[seeded++].edits = std::move(list);
  }
  std::vector<Individual> drawn =
      drawIndividuals(context, static_cast<int>(population.size() - seeded),
                      config.initialEdits);
  for (size_t i = seeded; i < population.size(); ++i)
    population[i] = std::move(drawn[i - seeded]);
  evaluate(population, 0);
  // Validity-aware: redraw the ones that failed, twice at most.
  for (int round = 0; round < 2; ++round) {
    std::vector<size_t> failed;
    for (size_t i = 0; i < population.size(); ++i)
      if (!population[i].feasible())
        failed.push_back(i);
    if (failed.empty())
      break;
    std::vector<Individual> redrawn = drawIndividuals(
        context, static_cast<int>(failed.size()), config.initialEdits);
    evaluate(redrawn, 0);
    for (size_t k = 0; k < failed.size(); ++k)
      if (redrawn[k].feasible())
        population[failed[k]] = std::move(redrawn[k]);
  }
  return population;
}

std::vector<Individual> Nsga2Search::evolve(std::vector<Individual> population,
                                            int generation,
                                            const EvaluateBatch &evaluate) {
  std::vector<Individual> children = offspring(population);
  evaluate(children, generation);
  scoreScreen(children, generation);
  return survivors(std::move(population), std::move(children));
}

Individual Nsga2Search::breedOne(const std::vector<Individual> &population,
                                 int generation) {
  const AlgorithmSettings &config = context.settings;
  std::mt19937_64 &rng = context.rng;
  Ranking ranking = rank(population);
  Individual child;
  if (population.size() < 2 ||
      chance(immigrantRate(population, ranking), rng)) {
    child =
        std::move(drawIndividuals(context, 1, config.maxRandomEdits).front());
  } else {
    std::vector<double> weights = weightsFor(population, ranking);
    bool screening = config.screen > 1 && context.measured &&
                     (context.staticCost || context.breed);
    if (screening && fittedFor != generation) {
      surrogate.fit(context.measured());
      fittedFor = generation;
    }
    const Individual &a = population[tournament(ranking, rng)];
    const Individual &b = population[tournament(ranking, rng)];
    if (context.breed) {
      child = breedOneElsewhere(a, b, weights, screening);
      child.generation = generation;
      return child;
    }
    // As many candidates per child as the generational schedule breeds
    // per child slot (`screen`): each candidate is built for its key and
    // static cost, rank 0's main cost per child.
    std::vector<Individual> candidates = breed(a, b, weights, 1);
    if (screening) {
      for (int round = 1; round < config.screen; ++round)
        candidates.push_back(std::move(breed(a, b, weights, 1).front()));
      candidates = screen(std::move(candidates), 1);
      predicted.clear(); // no per-generation report in this schedule
    }
    child = std::move(candidates.front());
  }
  child.generation = generation;
  return child;
}

std::vector<Individual> Nsga2Search::arrive(std::vector<Individual> population,
                                            Individual child) {
  std::vector<Individual> children;
  children.push_back(std::move(child));
  return survivors(std::move(population), std::move(children));
}

std::vector<Individual> Nsga2Search::breed(const Individual &a,
                                           const Individual &b,
                                           const std::vector<double> &weights,
                                           size_t count) {
  const AlgorithmSettings &config = context.settings;
  std::mt19937_64 &rng = context.rng;
  std::pair<std::vector<Edit>, std::vector<Edit>> lists = {a.edits, b.edits};
  if (chance(config.crossoverRate, rng))
    lists = crossoverLists(a.edits, b.edits, rng);
  std::vector<Individual> children;
  for (std::vector<Edit> *list : {&lists.first, &lists.second}) {
    if (children.size() >= count)
      break;
    Individual child;
    child.edits = *list;
    // A child that repeats a parent would only spend a slot on a cache
    // hit: it is mutated then, whatever the mutation rate says.
    bool repeatsParent = child.edits == a.edits || child.edits == b.edits;
    if (repeatsParent || chance(config.mutationRate, rng)) {
      std::vector<Edit> before = child.edits;
      child.edits = context.variation.mutate(
          before, repeatsParent ? 0.0 : config.removeRate, config.retuneRate,
          rng, weights);
      if (child.edits.size() > before.size())
        child.newestKind = child.edits.back().kind;
    }
    // A child that builds a variant measured before would only be a
    // cache hit: mutate it again (a few times at most).
    for (int tries = 0;
         tries < kNoveltyTries && context.isNew && !context.isNew(child.edits);
         ++tries) {
      child.edits =
          context.variation.mutate(*list, 0.0, config.retuneRate, rng, weights);
      if (child.edits.size() > list->size())
        child.newestKind = child.edits.back().kind;
    }
    children.push_back(std::move(child));
  }
  return children;
}

std::vector<Individual> Nsga2Search::screen(std::vector<Individual> candidates,
                                            size_t count) {
  std::vector<double> costs;
  for (const Individual &candidate : candidates)
    costs.push_back(context.staticCost(candidate.edits));
  return screen(std::move(candidates), costs, count);
}

std::vector<Individual> Nsga2Search::screen(std::vector<Individual> candidates,
                                            const std::vector<double> &costs,
                                            size_t count) {
  std::vector<Prediction> guesses;
  for (size_t i = 0; i < candidates.size(); ++i)
    guesses.push_back(surrogate.predict(candidates[i].edits, costs[i]));
  candidatesBred += candidates.size();
  // c beats b: likely to stay feasible where b is not; else predicted to
  // dominate it; else clearly likelier to stay feasible.
  auto beats = [&](size_t c, size_t b) {
    bool cSafe = guesses[c].failure < 0.5, bSafe = guesses[b].failure < 0.5;
    if (cSafe != bSafe)
      return cSafe;
    if (dominates(guesses[c].objectives, guesses[b].objectives))
      return true;
    if (dominates(guesses[b].objectives, guesses[c].objectives))
      return false;
    return guesses[c].failure < guesses[b].failure - 0.1;
  };
  std::vector<bool> taken(candidates.size(), false);
  std::vector<Individual> chosen;
  while (chosen.size() < count && chosen.size() < candidates.size()) {
    size_t best = candidates.size();
    for (size_t i = 0; i < candidates.size(); ++i)
      if (!taken[i] && (best == candidates.size() || beats(i, best)))
        best = i;
    taken[best] = true;
    predicted.push_back(guesses[best]);
    chosen.push_back(std::move(candidates[best]));
  }
  return chosen;
}

std::vector<Individual>
Nsga2Search::offspring(const std::vector<Individual> &parents) {
  if (context.breed)
    return offspringBredElsewhere(parents);
  const AlgorithmSettings &config = context.settings;
  std::mt19937_64 &rng = context.rng;
  Ranking ranking = rank(parents);
  int immigrants = static_cast<int>(
      std::lround(immigrantRate(parents, ranking) * config.population));
  std::vector<double> weights = weightsFor(parents, ranking);
  std::vector<Individual> children = randomBatch(context, immigrants);
  predicted.assign(children.size(), std::nullopt);
  candidatesBred = 0;
  bool screening = config.screen > 1 && context.staticCost && context.measured;
  if (screening)
    surrogate.fit(context.measured());
  while (static_cast<int>(children.size()) < config.population) {
    size_t slots = std::min<size_t>(2, config.population - children.size());
    const Individual &a = parents[tournament(ranking, rng)];
    const Individual &b = parents[tournament(ranking, rng)];
    std::vector<Individual> pair = breed(a, b, weights, screening ? 2 : slots);
    if (screening) {
      for (int round = 1; round < config.screen; ++round)
        for (Individual &candidate : breed(a, b, weights, 2))
          pair.push_back(std::move(candidate));
      pair = screen(std::move(pair), slots);
    } else {
      predicted.resize(predicted.size() + slots);
    }
    for (Individual &child : pair)
      children.push_back(std::move(child));
  }
  return children;
}

void Nsga2Search::scoreScreen(const std::vector<Individual> &children,
                              int generation) {
  if (candidatesBred == 0) {
    report.reset();
    return;
  }
  ScreenReport r;
  r.generation = generation;
  r.candidates = candidatesBred;
  size_t n = context.objectives.size();
  std::vector<std::vector<double>> guessed(n), measured(n);
  for (size_t i = 0; i < children.size() && i < predicted.size(); ++i) {
    bool bad = !ranked(children[i]);
    if (!predicted[i]) {
      ++r.immigrants;
      r.immigrantFailure += bad;
      continue;
    }
    ++r.screened;
    r.predictedFailure += predicted[i]->failure;
    r.measuredFailure += bad;
    if (bad || predicted[i]->objectives.size() != n)
      continue;
    ++r.rankedChildren;
    std::vector<double> values = objectivesOf(children[i]);
    for (size_t k = 0; k < n; ++k) {
      guessed[k].push_back(predicted[i]->objectives[k]);
      measured[k].push_back(values[k]);
    }
  }
  if (r.screened)
    r.predictedFailure /= r.screened, r.measuredFailure /= r.screened;
  if (r.immigrants)
    r.immigrantFailure /= r.immigrants;
  for (size_t k = 0; k < n; ++k)
    r.spearman.push_back(spearman(guessed[k], measured[k]));
  report = r;
}

std::vector<Individual>
Nsga2Search::survivors(std::vector<Individual> parents,
                       std::vector<Individual> children) const {
  std::vector<Individual> merged = std::move(parents);
  for (Individual &child : children)
    merged.push_back(std::move(child));
  // Equal variants once each, so that copies do not crowd out diversity;
  // duplicates come back only if there are too few distinct ones.
  std::vector<Individual> distinct, duplicates;
  std::set<std::string> seen;
  for (Individual &individual : merged)
    (seen.insert(individual.key).second ? distinct : duplicates)
        .push_back(std::move(individual));
  std::vector<Objectives> points;
  std::vector<bool> feasible;
  for (const Individual &individual : distinct) {
    points.push_back(objectivesOf(individual));
    feasible.push_back(ranked(individual));
  }
  int size = context.settings.population;
  std::vector<Individual> next;
  for (size_t i : selectSurvivors(points, feasible, size))
    next.push_back(std::move(distinct[i]));
  for (Individual &individual : duplicates)
    if (static_cast<int>(next.size()) < size)
      next.push_back(std::move(individual));
  return next;
}

} // namespace gevo
