//===- surrogate_test.cc - The pre-screen's predictor and its use ---------===//
//
// The surrogate on hand-made histories (which edits fail, what the nearest
// measured variant and the static cost say), and NSGA-II's pre-screen on the
// prediction workload's module against an oracle that fails every variant
// holding a delete or an operand edit: the screened generations run fewer
// failing children than unscreened ones bred from the same seeds.
//
//===----------------------------------------------------------------------===//

#include "gevo/search/surrogate.h"

#include <random>

#include "gevo/eval/static_cost.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/nsga2_search.h"
#include "gevo/search/variation.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

Edit constant(int ordinal, const std::string &literal) {
  Edit edit;
  edit.kind = EditKind::Constant;
  edit.target.function = "main";
  edit.target.opName = "arith.constant";
  edit.target.ordinal = ordinal;
  edit.literal = literal;
  return edit;
}

Individual measured(std::vector<Edit> edits, bool ok, double error,
                    double runMs = 10, double staticCost = 100) {
  Individual individual;
  individual.edits = std::move(edits);
  individual.measurement.outcome = ok ? Outcome::Ok : Outcome::Crash;
  individual.measurement.validation.total = 1000;
  individual.measurement.validation.correct =
      static_cast<int64_t>(1000 * (1 - error) + 0.5);
  individual.measurement.medianRunMs = runMs;
  individual.measurement.staticCost = staticCost;
  return individual;
}

std::vector<const Individual *> pointers(const std::vector<Individual> &all) {
  std::vector<const Individual *> out;
  for (const Individual &individual : all)
    out.push_back(&individual);
  return out;
}

TEST(EditKeyTest, EqualForEqualEditsOnly) {
  EXPECT_EQ(editKey(constant(1, "2.0")), editKey(constant(1, "2.0")));
  EXPECT_NE(editKey(constant(1, "2.0")), editKey(constant(1, "3.0")));
  EXPECT_NE(editKey(constant(1, "2.0")), editKey(constant(2, "2.0")));
  Edit shrink = constant(1, "");
  shrink.kind = EditKind::Shrink;
  shrink.keep = {0, 8, 2, {}};
  Edit other = shrink;
  other.keep.step = 4;
  EXPECT_NE(editKey(shrink), editKey(other));
}

TEST(SpearmanTest, RanksWithTies) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 35, 40}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  // Ranks (0.5, 0.5, 2) against (0, 1, 2): r = 1.5 / sqrt(1.5 * 2).
  EXPECT_NEAR(spearman({1, 1, 2}, {1, 2, 3}), 1.5 / std::sqrt(3.0), 1e-12);
  EXPECT_EQ(spearman({1, 2}, {2, 1}), 0.0);       // too short
  EXPECT_EQ(spearman({1, 1, 1}, {1, 2, 3}), 0.0); // constant
}

TEST(SurrogateTest, LearnsWhichEditsFail) {
  Edit good = constant(1, "2.0"), bad = constant(2, "0.0"),
       other = constant(3, "5.0"), unseen = constant(4, "1.5");
  std::vector<Individual> history = {
      measured({good}, true, 0.10),    measured({bad}, false, 0),
      measured({good, bad}, false, 0), measured({other, bad}, false, 0),
      measured({other}, true, 0.30),   measured({good, other}, true, 0.35),
  };
  Surrogate surrogate({"error"}, {});
  EXPECT_FALSE(surrogate.trained());
  surrogate.fit(pointers(history));
  EXPECT_TRUE(surrogate.trained());
  Prediction withBad = surrogate.predict({good, bad}, 100);
  Prediction withUnseen = surrogate.predict({good, unseen}, 100);
  EXPECT_GT(withBad.failure, 0.6);
  EXPECT_LT(withUnseen.failure, withBad.failure - 0.2);
  // The nearest measured variant ({good, other}) plus nothing known of
  // `unseen`.
  Prediction near = surrogate.predict({good, other, unseen}, 100);
  ASSERT_EQ(near.objectives.size(), 1u);
  EXPECT_NEAR(near.objectives[0], 0.35, 1e-9);
  // Dropping `other` from it: its effect (its variants' errors above the
  // mean) comes off.
  Prediction without = surrogate.predict({good}, 100);
  EXPECT_NEAR(without.objectives[0], 0.10, 1e-9); // measured exactly
  Prediction fewer = surrogate.predict({good, unseen}, 100);
  EXPECT_LT(fewer.objectives[0], 0.35);
}

TEST(SurrogateTest, ScalesRunTimeByStaticCost) {
  std::vector<Individual> history = {
      measured({constant(1, "1.0")}, true, 0.1, 10, 100),
      measured({constant(2, "1.0")}, true, 0.1, 20, 200),
      measured({constant(3, "1.0")}, true, 0.1, 40, 400),
  };
  Surrogate surrogate({"runtime", "error"}, {});
  surrogate.fit(pointers(history));
  // Nearest: the first (shares its edit); run time proportional to cost.
  Prediction p = surrogate.predict({constant(1, "1.0"), constant(9, "2")}, 50);
  ASSERT_EQ(p.objectives.size(), 2u);
  EXPECT_NEAR(p.objectives[0], 5, 1e-6);
}

TEST(SurrogateTest, OutOfBoundVariantsCountAsFailures) {
  Edit broken = constant(1, "-1.0"), fine = constant(2, "2.0");
  std::vector<Individual> history = {measured({broken}, true, 0.90),
                                     measured({broken, fine}, true, 0.85),
                                     measured({fine}, true, 0.05)};
  Surrogate surrogate({"error"}, {0.3});
  surrogate.fit(pointers(history));
  EXPECT_GT(surrogate.predict({broken}, 1).failure,
            surrogate.predict({fine}, 1).failure + 0.3);
}

/// NSGA-II's generations on the real module, measured by an oracle: a
/// variant holding a delete or an operand edit crashes, the others score
/// by static cost (their real one) and an error that grows with their
/// number of edits. Returns how many children crashed after generation 1.
int crashedChildren(int screen, uint64_t seed, double *costRho = nullptr) {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(findRunfile("testdata/digits_mlp_predict"));
  EXPECT_TRUE(spec.ok()) << spec.status();
  auto context = createContext();
  auto module = loadModule(*context, spec->modulePath);
  EXPECT_TRUE(module.ok()) << module.status();
  Variation variation(**module, MutationOptions());
  std::mt19937_64 rng(seed);
  std::vector<std::string> objectives = {"static_cost", "error"};
  AlgorithmSettings settings;
  settings.rateSeeds = false; // no seeds
  settings.pruneSeeds = false;
  settings.population = 12;
  settings.screen = screen;
  std::vector<Individual> all;
  auto costOf = [&](const std::vector<Edit> &edits) {
    return estimateStaticCost(*variation.build(edits).module, spec->entry);
  };
  auto measure = [&](Individual &individual) {
    bool crashes = false;
    for (const Edit &edit : individual.edits)
      crashes |=
          edit.kind == EditKind::Delete || edit.kind == EditKind::Operand;
    individual = measured(individual.edits, !crashes,
                          0.05 + 0.01 * individual.edits.size(), 1,
                          costOf(individual.edits));
    individual.key =
        modelFingerprint(*variation.build(individual.edits).module);
    all.push_back(individual);
  };
  AlgorithmContext algorithmContext{settings, variation, objectives, rng};
  algorithmContext.staticCost = costOf;
  algorithmContext.measured = [&] { return pointers(all); };
  Nsga2Search search(algorithmContext);
  int crashed = 0, generation = 0;
  double rho = 0;
  EvaluateBatch evaluate = [&](std::vector<Individual> &batch, int) {
    for (Individual &individual : batch) {
      measure(individual);
      crashed += generation > 1 && !individual.feasible();
    }
  };
  std::vector<Individual> population = search.initialPopulation(evaluate);
  for (generation = 1; generation <= 4; ++generation) {
    population = search.evolve(population, generation, evaluate);
    if (std::optional<ScreenReport> report = search.screenReport())
      rho += report->spearman[0] / 4;
  }
  if (costRho)
    *costRho = rho;
  return crashed;
}

TEST(ScreenTest, ScreenedGenerationsRunFewerFailingChildren) {
  int screened = 0, unscreened = 0;
  double rho = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    double seedRho = 0;
    screened += crashedChildren(3, seed, &seedRho);
    unscreened += crashedChildren(1, seed);
    rho += seedRho / 3;
  }
  EXPECT_LT(screened, unscreened);
  // The static cost is computed exactly; its ranks follow.
  EXPECT_GT(rho, 0.9);
}

} // namespace
} // namespace gevo
