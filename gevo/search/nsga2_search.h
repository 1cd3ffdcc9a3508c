//===- nsga2_search.h - NSGA-II over edit lists ---------------------------===//
//
// GEVO's NSGA-II as an algorithm: a validity-aware initial population (lists
// of 1..initialEdits edits; failed ones redrawn twice at most), children by
// binary tournaments, GEVO's crossover and add/remove mutation plus a share
// of random immigrants, and elitist survival over parents and children with
// equal variants kept once. Ranks, crowding and survivors are nsga2.h's.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_NSGA2_SEARCH_H
#define GEVO_SEARCH_NSGA2_SEARCH_H

#include "gevo/search/algorithm.h"

namespace gevo {

class Nsga2Search : public SearchAlgorithm {
public:
  explicit Nsga2Search(AlgorithmContext context) : context(context) {}
  std::vector<Individual>
  initialPopulation(const EvaluateBatch &evaluate) override;
  std::vector<Individual> evolve(std::vector<Individual> population,
                                 int generation,
                                 const EvaluateBatch &evaluate) override;

private:
  std::vector<Individual> offspring(const std::vector<Individual> &parents);
  std::vector<Individual> survivors(std::vector<Individual> parents,
                                    std::vector<Individual> children) const;
  std::vector<double> objectivesOf(const Individual &individual) const;

  AlgorithmContext context;
};

} // namespace gevo

#endif // GEVO_SEARCH_NSGA2_SEARCH_H
