//===- nsga2.h - NSGA-II selection over objective vectors -----------------===//
//
// The algorithm's side of the search, knowing nothing of MLIR or workloads:
// Pareto ranks and crowding distances (pagmo2's), binary tournaments, elitist
// survivor selection, the non-dominated front, hypervolume (pagmo2's), and
// GEVO's crossover of two variable-length lists. All objectives are
// minimised; infeasible individuals (failed variants) rank after every
// feasible one.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_NSGA2_H
#define GEVO_SEARCH_NSGA2_H

#include <algorithm>
#include <cstddef>
#include <random>
#include <utility>
#include <vector>

namespace gevo {

using Objectives = std::vector<double>;

struct Ranking {
  /// 0 for the non-dominated front, 1 for the next...; infeasible
  /// individuals get one more than the last feasible front.
  std::vector<size_t> rank;
  /// Crowding distance within the individual's front (infinite at a front's
  /// ends; 0 for infeasible individuals).
  std::vector<double> crowding;
};

Ranking rankPopulation(const std::vector<Objectives> &objectives,
                       const std::vector<bool> &feasible);

/// Binary tournament: the lower rank wins, then the larger crowding
/// distance, then the first drawn.
size_t tournament(const Ranking &ranking, std::mt19937_64 &rng);

/// The indices of the `n` individuals NSGA-II keeps: whole fronts in rank
/// order, the last one cut by crowding distance; infeasible ones only when
/// there are not enough feasible ones. Ascending index order.
std::vector<size_t> selectSurvivors(const std::vector<Objectives> &objectives,
                                    const std::vector<bool> &feasible,
                                    size_t n);

/// Indices of the feasible individuals no other feasible one dominates, with
/// duplicates of a point listed once (the first).
std::vector<size_t> nonDominated(const std::vector<Objectives> &objectives,
                                 const std::vector<bool> &feasible);
/// The same by comparing every pair (what nonDominated() falls back to when
/// an objective is NaN, which has no order).
std::vector<size_t>
nonDominatedByPairs(const std::vector<Objectives> &objectives,
                    const std::vector<bool> &feasible);

/// Whether `a` dominates `b` (no worse anywhere, better somewhere).
bool dominates(const Objectives &a, const Objectives &b);

/// The hypervolume `points` dominate up to `reference` (pagmo2); points that
/// do not dominate the reference are left out.
double hypervolume(const std::vector<Objectives> &points,
                   const Objectives &reference);

/// GEVO's crossover: both children keep the edits their parents share; the
/// rest of each parent is cut at a random point and the tails exchanged.
/// Child 1 is parent a's shared and head edits (in a's order) followed by b's
/// tail; child 2 the other way round.
template <typename T>
std::pair<std::vector<T>, std::vector<T>>
crossoverLists(const std::vector<T> &a, const std::vector<T> &b,
               std::mt19937_64 &rng) {
  auto in = [](const std::vector<T> &list, const T &item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  std::vector<bool> sharedA(a.size()), sharedB(b.size());
  std::vector<T> restA, restB;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(sharedA[i] = in(b, a[i])))
      restA.push_back(a[i]);
  for (size_t i = 0; i < b.size(); ++i)
    if (!(sharedB[i] = in(a, b[i])))
      restB.push_back(b[i]);
  size_t cutA = std::uniform_int_distribution<size_t>(0, restA.size())(rng);
  size_t cutB = std::uniform_int_distribution<size_t>(0, restB.size())(rng);
  auto child = [](const std::vector<T> &parent, const std::vector<bool> &shared,
                  size_t cut, const std::vector<T> &otherRest,
                  size_t otherCut) {
    std::vector<T> out;
    size_t restSeen = 0;
    for (size_t i = 0; i < parent.size(); ++i) {
      if (shared[i])
        out.push_back(parent[i]);
      else if (restSeen++ < cut)
        out.push_back(parent[i]);
    }
    out.insert(out.end(), otherRest.begin() + otherCut, otherRest.end());
    return out;
  };
  return {child(a, sharedA, cutA, restB, cutB),
          child(b, sharedB, cutB, restA, cutA)};
}

} // namespace gevo

#endif // GEVO_SEARCH_NSGA2_H
