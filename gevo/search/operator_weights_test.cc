//===- operator_weights_test.cc - NSGA-II's adaptive operator weights -----===//
//
// The weights follow the edits the first front holds, ignore variants
// outside the bounds (a broken extreme), keep a floor for every operator,
// and are a function of the population, so a checkpoint restores them.
//
//===----------------------------------------------------------------------===//

#include <limits>
#include <numeric>

#include "gevo/search/checkpoint.h"
#include "gevo/search/nsga2_search.h"
#include "gevo/search/variation.h"
#include "mlir/IR/BuiltinOps.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

Individual member(std::vector<EditKind> kinds, double cost, double accuracy,
                  const std::string &key) {
  Individual individual;
  for (EditKind kind : kinds) {
    Edit edit;
    edit.kind = kind;
    edit.target = {"main", "linalg.generic", 0, 0};
    edit.keep = {0, 2, 1, {}};
    individual.edits.push_back(edit);
  }
  individual.key = key;
  individual.measurement.outcome = Outcome::Ok;
  individual.measurement.staticCost = cost;
  individual.measurement.validation.total = 100;
  individual.measurement.validation.correct =
      static_cast<int64_t>(accuracy * 100);
  return individual;
}

class OperatorWeightsTest : public ::testing::Test {
protected:
  std::vector<double> weights(const std::vector<Individual> &population,
                              std::vector<double> bounds) {
    MutationOptions options;
    options.kinds = {EditKind::Delete, EditKind::Shrink};
    Variation variation(mlir::ModuleOp(), options);
    std::mt19937_64 rng(1);
    AlgorithmSettings settings;
    settings.screen = 1; // no pre-screen, no seeds
    settings.rateSeeds = false;
    settings.pruneSeeds = false;
    Nsga2Search algorithm(
        AlgorithmContext{settings, variation, objectives, rng, bounds});
    return algorithm.operatorWeights(population);
  }

  std::vector<std::string> objectives = {"static_cost", "error"};
  const double inf = std::numeric_limits<double>::infinity();
  // Two shrinks on the first front; a delete behind them; a broken delete
  // (error 0.9) that is cheapest of all.
  std::vector<Individual> population = {
      member({EditKind::Shrink, EditKind::Shrink}, 10, 0.95, "a"),
      member({EditKind::Delete}, 20, 0.94, "b"),
      member({EditKind::Delete}, 1, 0.10, "c")};
};

TEST_F(OperatorWeightsTest, FollowTheFirstFrontInsideTheBounds) {
  std::vector<double> w = weights(population, {inf, 0.3});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 1.0, 1e-9);
  EXPECT_GT(w[1], w[0]); // shrink over delete
  // 1 + 0 delete credits against 1 + 2 shrink ones, above a floor of 1/8.
  EXPECT_NEAR(w[0], 0.125 + 0.75 * 1 / 4, 1e-9);
}

TEST_F(OperatorWeightsTest, WithoutBoundsTheBrokenExtremeEarnsCredit) {
  std::vector<double> w = weights(population, {});
  // The broken delete is on the first front now (cheapest).
  EXPECT_NEAR(w[0], 0.125 + 0.75 * 2 / 5, 1e-9);
}

TEST_F(OperatorWeightsTest, ACheckpointRestoresThem) {
  Checkpoint checkpoint;
  checkpoint.population = population;
  absl::StatusOr<Checkpoint> back =
      parseCheckpoint(toJsonText(checkpoint), "checkpoint.json");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(weights(back->population, {inf, 0.3}),
            weights(population, {inf, 0.3}));
}

} // namespace
} // namespace gevo
