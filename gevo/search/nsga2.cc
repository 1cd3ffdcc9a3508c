//===- nsga2.cc - NSGA-II selection over objective vectors ----------------===//

#include "gevo/search/nsga2.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "pagmo/utils/hypervolume.hpp"
#include "pagmo/utils/multi_objective.hpp"

namespace gevo {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// Crowding distances of one front (pagmo2 needs at least two points).
std::vector<double> crowdingOf(const std::vector<Objectives> &front) {
  if (front.size() < 3)
    return std::vector<double>(front.size(), kInfinity);
  return pagmo::crowding_distance(front);
}

} // namespace

bool dominates(const Objectives &a, const Objectives &b) {
  return pagmo::pareto_dominance(a, b);
}

Ranking rankPopulation(const std::vector<Objectives> &objectives,
                       const std::vector<bool> &feasible) {
  Ranking ranking;
  size_t n = objectives.size();
  ranking.rank.assign(n, 0);
  ranking.crowding.assign(n, 0);
  std::vector<size_t> feasibleIndices;
  for (size_t i = 0; i < n; ++i)
    if (feasible[i])
      feasibleIndices.push_back(i);
  size_t infeasibleRank = 0;
  if (feasibleIndices.size() == 1) {
    ranking.crowding[feasibleIndices[0]] = kInfinity;
    infeasibleRank = 1;
  } else if (feasibleIndices.size() >= 2) {
    std::vector<Objectives> points;
    for (size_t i : feasibleIndices)
      points.push_back(objectives[i]);
    auto [fronts, dominatedBy, dominationCount, ranks] =
        pagmo::fast_non_dominated_sorting(points);
    (void)dominatedBy;
    (void)dominationCount;
    for (const std::vector<pagmo::pop_size_t> &front : fronts) {
      std::vector<Objectives> frontPoints;
      for (pagmo::pop_size_t j : front)
        frontPoints.push_back(points[j]);
      std::vector<double> crowding = crowdingOf(frontPoints);
      for (size_t k = 0; k < front.size(); ++k) {
        size_t original = feasibleIndices[front[k]];
        ranking.rank[original] = ranks[front[k]];
        ranking.crowding[original] = crowding[k];
      }
    }
    infeasibleRank = fronts.size();
  }
  for (size_t i = 0; i < n; ++i)
    if (!feasible[i])
      ranking.rank[i] = infeasibleRank;
  return ranking;
}

size_t tournament(const Ranking &ranking, std::mt19937_64 &rng) {
  std::uniform_int_distribution<size_t> draw(0, ranking.rank.size() - 1);
  size_t a = draw(rng), b = draw(rng);
  if (ranking.rank[a] != ranking.rank[b])
    return ranking.rank[a] < ranking.rank[b] ? a : b;
  return ranking.crowding[b] > ranking.crowding[a] ? b : a;
}

std::vector<size_t> selectSurvivors(const std::vector<Objectives> &objectives,
                                    const std::vector<bool> &feasible,
                                    size_t n) {
  std::vector<size_t> feasibleIndices, infeasibleIndices;
  for (size_t i = 0; i < objectives.size(); ++i)
    (feasible[i] ? feasibleIndices : infeasibleIndices).push_back(i);
  std::vector<size_t> kept;
  if (feasibleIndices.size() <= n) {
    kept = feasibleIndices;
    for (size_t i : infeasibleIndices)
      if (kept.size() < n)
        kept.push_back(i);
  } else {
    std::vector<Objectives> points;
    for (size_t i : feasibleIndices)
      points.push_back(objectives[i]);
    for (pagmo::pop_size_t j : pagmo::select_best_N_mo(points, n))
      kept.push_back(feasibleIndices[j]);
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

std::vector<size_t> nonDominated(const std::vector<Objectives> &objectives,
                                 const std::vector<bool> &feasible) {
  // A point's dominators all come before it in lexicographic order, and one
  // of them is on the front: each point is compared with the front found so
  // far only (the archive holds thousands of points, its front dozens).
  std::vector<size_t> order;
  for (size_t i = 0; i < objectives.size(); ++i) {
    if (!feasible[i])
      continue;
    for (double value : objectives[i])
      if (std::isnan(value))
        return nonDominatedByPairs(objectives, feasible);
    order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return objectives[a] < objectives[b];
  });
  std::vector<size_t> front;
  for (size_t i : order) {
    bool keep = true;
    for (size_t j : front)
      if (dominates(objectives[j], objectives[i]) ||
          objectives[j] == objectives[i]) {
        keep = false;
        break;
      }
    if (keep)
      front.push_back(i);
  }
  std::sort(front.begin(), front.end());
  return front;
}

std::vector<size_t>
nonDominatedByPairs(const std::vector<Objectives> &objectives,
                    const std::vector<bool> &feasible) {
  std::vector<size_t> front;
  for (size_t i = 0; i < objectives.size(); ++i) {
    if (!feasible[i])
      continue;
    bool keep = true;
    for (size_t j = 0; j < objectives.size() && keep; ++j) {
      if (!feasible[j] || j == i)
        continue;
      if (dominates(objectives[j], objectives[i]) ||
          (j < i && objectives[j] == objectives[i]))
        keep = false;
    }
    if (keep)
      front.push_back(i);
  }
  return front;
}

double hypervolume(const std::vector<Objectives> &points,
                   const Objectives &reference) {
  std::vector<Objectives> inside;
  for (const Objectives &point : points) {
    bool dominatesReference = point.size() == reference.size();
    for (size_t k = 0; k < point.size() && dominatesReference; ++k)
      dominatesReference = point[k] < reference[k];
    if (dominatesReference)
      inside.push_back(point);
  }
  if (inside.empty())
    return 0;
  pagmo::hypervolume volume(inside, /*verify=*/true);
  return volume.compute(reference);
}

} // namespace gevo
