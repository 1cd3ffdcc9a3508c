//===- novelty_test.cc - NSGA-II spends no child on a known variant -------===//
//
// With an isNew callback, a child whose variant the run has measured or
// proposed already is mutated again, so the generation's evaluations go to
// variants not seen before. Breeds on the prediction workload's module with
// a callback that knows variants by fingerprint, as the search run's does.
//
//===----------------------------------------------------------------------===//

#include <random>
#include <set>

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

class NoveltyTest : public ::testing::Test {
protected:
  void SetUp() override {
    absl::StatusOr<WorkloadSpec> spec =
        loadWorkloadSpec(findRunfile("testdata/digits_mlp_predict"));
    ASSERT_TRUE(spec.ok()) << spec.status();
    context = createContext();
    auto loaded = loadModule(*context, spec->modulePath);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    module = std::move(*loaded);
    variation = std::make_unique<Variation>(*module, MutationOptions());
  }

  std::string keyOf(const std::vector<Edit> &edits) {
    return modelFingerprint(*variation->build(edits).module);
  }

  /// Breeds one generation from `parents` (all measured alike) and returns
  /// how many children repeat a variant known before or within it.
  int repeats(bool askIsNew, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Individual> parents;
    std::set<std::string> known, proposed;
    for (int i = 0; i < 8; ++i) {
      Individual parent;
      parent.edits = variation->randomList(1 + i % 2, rng);
      parent.key = keyOf(parent.edits);
      parent.measurement.validation.total = 10;
      parent.measurement.validation.correct = 9;
      parent.measurement.staticCost = 100 + i;
      known.insert(parent.key);
      parents.push_back(parent);
    }
    std::vector<std::string> objectives = {"static_cost", "error"};
    AlgorithmSettings settings;
    settings.screen = 1; // no pre-screen, no seeds
    settings.rateSeeds = false;
    settings.pruneSeeds = false;
    settings.population = 24;
    settings.immigrantRate = 0;
    settings.mutationRate = 0.2; // most children are bare crossovers
    AlgorithmContext algorithmContext{settings, *variation, objectives, rng};
    std::set<std::string> seen = known;
    if (askIsNew)
      algorithmContext.isNew = [&](const std::vector<Edit> &edits) {
        return seen.insert(keyOf(edits)).second;
      };
    Nsga2Search search(algorithmContext);
    int repeated = 0;
    search.evolve(parents, 1, [&](std::vector<Individual> &batch, int) {
      for (Individual &child : batch) {
        child.key = keyOf(child.edits);
        repeated +=
            known.count(child.key) || !proposed.insert(child.key).second;
        child.measurement = parents.front().measurement;
      }
    });
    return repeated;
  }

  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<Variation> variation;
};

TEST_F(NoveltyTest, ChildrenRepeatKnownVariantsOnlyWithoutTheCallback) {
  int without = 0, with = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    without += repeats(false, seed);
    with += repeats(true, seed);
  }
  EXPECT_GT(without, 0); // crossovers of short lists repeat their parents
  EXPECT_LT(with, without);
  EXPECT_LE(with, 1); // only after every retry produced a known variant
}

} // namespace
} // namespace gevo
