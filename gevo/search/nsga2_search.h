//===- nsga2_search.h - NSGA-II over edit lists ---------------------------===//
//
// GEVO's NSGA-II as an algorithm: a validity-aware initial population (lists
// of 1..initialEdits edits; failed ones redrawn twice at most), children by
// binary tournaments, GEVO's crossover and add/remove mutation plus a share
// of random immigrants, and elitist survival over parents and children with
// equal variants kept once. Ranks, crowding and survivors are nsga2.h's.
//
// Two things steer it towards what a user could want: variants outside the
// context's bounds (an error far above the unmodified program's) rank behind
// the others, so crowding does not keep broken extremes; and mutation draws
// its operator by adaptive weights (probability matching with a floor): an
// operator's share follows how many edits of its kind the current first
// front holds. The immigrant share halves once that front has three
// members. Each pair of parents is bred `screen` times and a surrogate
// fitted on everything measured so far picks the two children to run
// (surrogate.h): the likeliest to stay feasible, then the one it predicts
// dominates; how well it guessed is screenReport()'s.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_NSGA2_SEARCH_H
#define GEVO_SEARCH_NSGA2_SEARCH_H

#include <optional>

#include "gevo/search/algorithm.h"
#include "gevo/search/nsga2.h"
#include "gevo/search/surrogate.h"

namespace gevo {

class Nsga2Search : public SearchAlgorithm {
public:
  explicit Nsga2Search(AlgorithmContext context) : context(context) {}
  std::vector<Individual>
  initialPopulation(const EvaluateBatch &evaluate) override;
  std::vector<Individual> evolve(std::vector<Individual> population,
                                 int generation,
                                 const EvaluateBatch &evaluate) override;
  /// An immigrant (at the generational share), or a child of two
  /// tournament winners (pre-screened: the best of `screen` candidates).
  Individual breedOne(const std::vector<Individual> &population,
                      int generation) override;
  /// NSGA-II's survivors of the population and the child.
  std::vector<Individual> arrive(std::vector<Individual> population,
                                 Individual child) override;
  std::vector<double>
  operatorWeights(const std::vector<Individual> &population) const override;
  std::optional<ScreenReport> screenReport() const override { return report; }

private:
  /// How often a child that repeats a known variant is mutated again.
  static constexpr int kNoveltyTries = 4;

  std::vector<Individual> offspring(const std::vector<Individual> &parents);
  /// `count` (1 or 2) children of `a` and `b` (crossover, then mutation,
  /// then novelty).
  std::vector<Individual> breed(const Individual &a, const Individual &b,
                                const std::vector<double> &weights,
                                size_t count);
  /// Of `candidates`, the `count` the surrogate rates best, their
  /// predictions appended to `chosen`.
  std::vector<Individual> screen(std::vector<Individual> candidates,
                                 size_t count);
  /// The same with the candidates' static costs at hand.
  std::vector<Individual> screen(std::vector<Individual> candidates,
                                 const std::vector<double> &costs,
                                 size_t count);

  /// offspring() with context.breed (nsga2_bred_elsewhere.cc): the same
  /// draws of parents, crossover and mutation, each child's draws on a
  /// module left to a recipe; all of a generation's recipes bred in one
  /// batch, children that repeat a known variant bred again (each up to
  /// the novelty tries), then screened.
  std::vector<Individual>
  offspringBredElsewhere(const std::vector<Individual> &parents);
  /// breedOne()'s child of `a` and `b` with context.breed: the best of
  /// `screen` candidates (when `screening`) bred in one batch.
  Individual breedOneElsewhere(const Individual &a, const Individual &b,
                               const std::vector<double> &weights,
                               bool screening);
  /// The child `bred` from `recipe`, with the kind of its newest edit.
  static Individual bredChild(const Recipe &recipe, Bred &bred);
  /// The recipes of `count` (1 or 2) children of `a` and `b`, appended.
  void planChildren(const Individual &a, const Individual &b,
                    const std::vector<double> &weights, size_t count,
                    bool withCost, std::vector<Recipe> &recipes);
  /// Breeds again, from fresh seeds, the children of `recipes` (the
  /// immigrants' excepted: the first `from`) whose keys are not new.
  void breedNovel(const std::vector<Recipe> &recipes, size_t from,
                  std::vector<Bred> &bred);
  /// Fills `report` from the measured children.
  void scoreScreen(const std::vector<Individual> &children, int generation);
  std::vector<Individual> survivors(std::vector<Individual> parents,
                                    std::vector<Individual> children) const;
  std::vector<double> objectivesOf(const Individual &individual) const;
  /// Measured ok and inside the bounds.
  bool ranked(const Individual &individual) const;
  Ranking rank(const std::vector<Individual> &population) const;
  /// The share of a generation's children drawn as immigrants.
  double immigrantRate(const std::vector<Individual> &population,
                       const Ranking &ranking) const;
  /// operatorWeights() with the population's ranking already at hand.
  std::vector<double> weightsFor(const std::vector<Individual> &population,
                                 const Ranking &ranking) const;

  AlgorithmContext context;
  Surrogate surrogate{context.objectives, context.bounds};
  /// Per child of the generation in flight: the surrogate's prediction
  /// (none for immigrants and unscreened children).
  std::vector<std::optional<Prediction>> predicted;
  int candidatesBred = 0;
  std::optional<ScreenReport> report;
  /// breedOne(): the generation the surrogate was last fitted for, so that
  /// it is fitted once per generation, on what was measured when the
  /// generation's first child was bred (a resumed run fits alike).
  int fittedFor = -1;
};

} // namespace gevo

#endif // GEVO_SEARCH_NSGA2_SEARCH_H
