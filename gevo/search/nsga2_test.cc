//===- nsga2_test.cc - NSGA-II selection on hand-made fronts --------------===//

#include "gevo/search/nsga2.h"

#include <cmath>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// Three fronts in (runtime, error):
//   front 0: (1,5) (2,3) (4,1)      front 1: (3,4) (5,2)     front 2: (6,6)
const std::vector<Objectives> kPoints = {{3, 4}, {1, 5}, {6, 6},
                                         {2, 3}, {5, 2}, {4, 1}};
const std::vector<bool> kAllFeasible(6, true);

TEST(Nsga2Test, RanksFollowTheFronts) {
  Ranking r = rankPopulation(kPoints, kAllFeasible);
  EXPECT_THAT(r.rank, ElementsAre(1, 0, 2, 0, 1, 0));
  // The ends of a front are infinitely far from crowding; its middle is not.
  EXPECT_TRUE(std::isinf(r.crowding[1]));
  EXPECT_TRUE(std::isinf(r.crowding[5]));
  EXPECT_FALSE(std::isinf(r.crowding[3]));
  EXPECT_GT(r.crowding[3], 0);
}

TEST(Nsga2Test, InfeasibleRankLast) {
  std::vector<bool> feasible = kAllFeasible;
  feasible[1] = false; // (1,5) failed: (2,3) and (4,1) remain in front 0
  Ranking r = rankPopulation(kPoints, feasible);
  EXPECT_EQ(r.rank[1], 3u);
  EXPECT_EQ(r.rank[3], 0u);
  EXPECT_EQ(r.rank[2], 2u);
}

TEST(Nsga2Test, SurvivorsAreWholeFrontsThenTheLeastCrowded) {
  EXPECT_THAT(selectSurvivors(kPoints, kAllFeasible, 3), ElementsAre(1, 3, 5));
  EXPECT_THAT(selectSurvivors(kPoints, kAllFeasible, 5),
              ElementsAre(0, 1, 3, 4, 5));
  // Cutting a front of five collinear points to four keeps both ends.
  std::vector<Objectives> line = {{1, 5}, {2, 4}, {3, 3}, {4, 2}, {5, 1}};
  std::vector<size_t> kept =
      selectSurvivors(line, std::vector<bool>(5, true), 4);
  EXPECT_EQ(kept.size(), 4u);
  EXPECT_THAT(kept, ::testing::Contains(0));
  EXPECT_THAT(kept, ::testing::Contains(4));
}

TEST(Nsga2Test, InfeasibleSurviveOnlyToFill) {
  std::vector<bool> feasible = {true, false, false, true, false, false};
  EXPECT_THAT(selectSurvivors(kPoints, feasible, 3), ElementsAre(0, 1, 3));
}

TEST(Nsga2Test, TournamentPrefersTheBetterRank) {
  Ranking r = rankPopulation(kPoints, kAllFeasible);
  std::mt19937_64 rng(7);
  int wins = 0;
  for (int i = 0; i < 2000; ++i)
    wins += r.rank[tournament(r, rng)] == 0;
  // Rank 0 holds half the population; a binary tournament picks it with
  // probability 1 - (1/2)^2 = 3/4.
  EXPECT_GT(wins, 1400);
  EXPECT_LT(wins, 1600);
}

TEST(Nsga2Test, NonDominatedListsEachPointOnce) {
  std::vector<Objectives> points = {{1, 5}, {2, 3}, {2, 3}, {3, 4}, {4, 1}};
  EXPECT_THAT(nonDominated(points, std::vector<bool>(5, true)),
              ElementsAre(0, 1, 4));
  EXPECT_TRUE(dominates({1, 1}, {1, 2}));
  EXPECT_FALSE(dominates({1, 2}, {1, 2}));
  EXPECT_FALSE(dominates({0, 3}, {1, 2}));
}

// The sorted sweep nonDominated() makes lists what comparing every pair
// lists, on random archives with ties, repeats and infeasible points, in two
// and three objectives, and with a NaN (the pairwise fallback).
TEST(Nsga2Test, NonDominatedAgreesWithEveryPairCompared) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> coarse(0, 9);
  for (int round = 0; round < 200; ++round) {
    size_t n = 1 + round % 60, dims = 2 + round % 2;
    std::vector<Objectives> points(n, Objectives(dims));
    std::vector<bool> feasible(n);
    for (size_t i = 0; i < n; ++i) {
      for (double &value : points[i])
        value = coarse(rng) * 0.25;
      feasible[i] = coarse(rng) != 0;
    }
    if (round % 10 == 9)
      points[n / 2][0] = std::nan("");
    EXPECT_EQ(nonDominated(points, feasible),
              nonDominatedByPairs(points, feasible))
        << "round " << round;
  }
}

TEST(Nsga2Test, HypervolumeOfKnownPoints) {
  // Up to (4,4): (1,3) covers [1,4]x[3,4] = 3, (3,1) covers [3,4]x[1,4] = 3,
  // and they overlap in [3,4]x[3,4] = 1: 5 in all.
  EXPECT_DOUBLE_EQ(hypervolume({{1, 3}, {3, 1}}, {4, 4}), 5.0);
  // A point outside the reference adds nothing.
  EXPECT_DOUBLE_EQ(hypervolume({{1, 3}, {3, 1}, {5, 0}}, {4, 4}), 5.0);
  EXPECT_DOUBLE_EQ(hypervolume({}, {4, 4}), 0.0);
}

TEST(Nsga2Test, CrossoverKeepsSharedEditsAndSplitsTheRest) {
  std::vector<int> a = {1, 2, 3, 4}, b = {9, 2, 8, 4, 7};
  for (uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 rng(seed);
    auto [c1, c2] = crossoverLists(a, b, rng);
    for (const std::vector<int> *child : {&c1, &c2}) {
      EXPECT_THAT(*child, ::testing::Contains(2));
      EXPECT_THAT(*child, ::testing::Contains(4));
    }
    // Every unshared edit goes to exactly one child.
    for (int unshared : {1, 3, 9, 8, 7}) {
      int copies = std::count(c1.begin(), c1.end(), unshared) +
                   std::count(c2.begin(), c2.end(), unshared);
      EXPECT_EQ(copies, 1) << unshared << " seed " << seed;
    }
    EXPECT_EQ(c1.size() + c2.size(), a.size() + b.size());
  }
}

} // namespace
} // namespace gevo
