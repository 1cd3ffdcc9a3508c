//===- algorithm.h - How a search moves: population in, population out ----===//
//
// A search algorithm knows edit lists and objective values, never a
// workload, a file or a terminal: it draws the first population and, given
// a population, breeds and selects the next one. Measuring is a callback
// (the search run's, which also keeps the history, the archive and the
// progress line), as a pagmo2 algorithm's evolve() asks its problem for
// fitness. NSGA-II (nsga2_search.h) and random search (random_search.h)
// are the two; the search run picks one from its config. Each also breeds
// one child at a time and selects on its arrival, for the steady-state
// schedule (steady_loop.h), which has no generation barrier.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_ALGORITHM_H
#define GEVO_SEARCH_ALGORITHM_H

#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gevo/search/algorithm_settings.h"
#include "gevo/search/individual.h"
#include "gevo/search/recipe.h"

namespace gevo {

class Variation;

/// Measures `batch` in place as individuals of generation `generation`.
using EvaluateBatch =
    std::function<void(std::vector<Individual> &batch, int generation)>;

/// How well one generation's pre-screen guessed.
struct ScreenReport {
  int generation = 0;
  /// Candidates bred and predicted, and of them the children run.
  int candidates = 0;
  int screened = 0;
  /// Over the children run: the mean predicted chance of failing (or of
  /// leaving the bounds) and the share that did; the same share for the
  /// generation's immigrants (not screened), for comparison.
  double predictedFailure = 0;
  double measuredFailure = 0;
  int immigrants = 0;
  double immigrantFailure = 0;
  /// Per objective: Spearman's rank correlation of predicted and measured
  /// values over the children run that were ok, and how many those were.
  std::vector<double> spearman;
  int rankedChildren = 0;
};

class SearchAlgorithm {
public:
  virtual ~SearchAlgorithm() = default;
  /// Generation 0: the first population, measured.
  virtual std::vector<Individual>
  initialPopulation(const EvaluateBatch &evaluate) = 0;
  /// Generation `generation`: the population that follows `population`.
  virtual std::vector<Individual> evolve(std::vector<Individual> population,
                                         int generation,
                                         const EvaluateBatch &evaluate) = 0;
  /// Steady-state schedule (steady_loop.h): one child of `population`, not
  /// measured, for `generation` (the one in progress: a generation is
  /// `population` arrivals).
  virtual Individual breedOne(const std::vector<Individual> &population,
                              int generation) = 0;
  /// Steady-state survivor selection on arrival: the population once
  /// `child`, measured, has joined it.
  virtual std::vector<Individual> arrive(std::vector<Individual> population,
                                         Individual child) = 0;
  /// How likely each of the mutation options' kinds is drawn for children
  /// of `population` (same order); empty when drawn uniformly. A function
  /// of the population, so a resumed run draws as the uninterrupted one.
  virtual std::vector<double>
  operatorWeights(const std::vector<Individual> &population) const {
    return {};
  }
  /// The last generation's pre-screen, when it had one.
  virtual std::optional<ScreenReport> screenReport() const { return {}; }
};

/// What every algorithm is given: its settings, how to make and change edit
/// lists, the objectives to minimise, and the run's random numbers (kept
/// by the run, so that a checkpoint holds their state).
struct AlgorithmContext {
  AlgorithmSettings settings;
  const Variation &variation;
  const std::vector<std::string> &objectives;
  std::mt19937_64 &rng;
  /// Per objective, the largest value a variant may have and still be
  /// ranked with the others (+inf: no bound); empty: no bounds.
  std::vector<double> bounds = {};
  /// Whether `edits` build a variant this run has not measured or proposed
  /// yet (and, when so, remembers it as proposed); empty: not asked. NSGA-II
  /// mutates a child again rather than spend its slot on a repeat.
  std::function<bool(const std::vector<Edit> &edits)> isNew = {};
  /// For the pre-screen: the static cost of the variant `edits` build
  /// (computed without running it), and every variant measured so far, ok
  /// or not, oldest first. Either empty: no pre-screen.
  std::function<double(const std::vector<Edit> &edits)> staticCost = {};
  std::function<std::vector<const Individual *>()> measured = {};
  /// Breeds recipes where the variants are built (an MPI search's ranks),
  /// in order; empty: the algorithm breeds its children itself, drawing
  /// from `rng` alone. With it, a generational algorithm draws parents,
  /// crossover and seeds from `rng` and leaves each child's draws on a
  /// module to its recipe's seed.
  std::function<std::vector<Bred>(const std::vector<Recipe> &)> breed = {};
  /// With `breed`: whether a variant of this key is new (isNew's question
  /// for a child already keyed; when so, it counts as proposed).
  std::function<bool(const std::string &key)> isNewKey = {};
};

/// A fresh individual of 1..maxEdits random edits (as random search draws
/// them), with the kind of its newest edit.
Individual drawIndividual(const AlgorithmContext &context, int maxEdits);
/// `count` of them: drawn one after the other, or with `context.breed` as
/// recipes (a length and a seed each from `rng`) bred in one batch.
std::vector<Individual> drawIndividuals(const AlgorithmContext &context,
                                        int count, int maxEdits);

} // namespace gevo

#endif // GEVO_SEARCH_ALGORITHM_H
