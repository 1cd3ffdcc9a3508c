//===- variation_stress_test.cc - The parent survives whatever it breeds --===//
//
// The search builds every child in its own process before a sandbox runs
// it: crossing and mutating edit lists, building them, verifying, printing
// the fingerprint and estimating the static cost. None of that may crash,
// whatever the lists hold. Breeds many generations from random lists on both
// workloads (no child is run) and checks that every child built is
// accounted for.
//
//===----------------------------------------------------------------------===//

#include <random>

#include "gevo/eval/static_cost.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/nsga2.h"
#include "gevo/search/variation.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

void breed(const std::string &workloadDir, uint64_t seed, int generations) {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(findRunfile(workloadDir));
  ASSERT_TRUE(spec.ok()) << spec.status();
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  context->printOpOnDiagnostic(false);
  mlir::ScopedDiagnosticHandler quiet(
      context.get(), [](mlir::Diagnostic &) { return mlir::success(); });
  auto baseline = loadModule(*context, spec->modulePath);
  ASSERT_TRUE(baseline.ok()) << baseline.status();
  Variation variation(**baseline, MutationOptions());
  std::mt19937_64 rng(seed);
  std::vector<std::vector<Edit>> population;
  for (int i = 0; i < 12; ++i)
    population.push_back(variation.randomList(1 + i % 4, rng));
  int built = 0, verified = 0;
  for (int g = 0; g < generations; ++g) {
    std::vector<std::vector<Edit>> children;
    while (children.size() < population.size()) {
      const std::vector<Edit> &a = population[rng() % population.size()];
      const std::vector<Edit> &b = population[rng() % population.size()];
      auto [first, second] = crossoverLists(a, b, rng);
      for (std::vector<Edit> *child : {&first, &second}) {
        std::vector<Edit> mutated = variation.mutate(*child, 0.2, 0.3, rng);
        BuiltVariant variant = variation.build(mutated);
        ++built;
        (void)modelFingerprint(*variant.module);
        if (mlir::succeeded(mlir::verify(*variant.module))) {
          ++verified;
          (void)estimateStaticCost(*variant.module, spec->entry);
        }
        children.push_back(std::move(variant.edits));
      }
    }
    // Keep lists of every length: half the parents, half the children.
    for (size_t i = 0; i < population.size(); i += 2)
      population[i] = std::move(children[i]);
  }
  EXPECT_EQ(built, generations * 12);
  EXPECT_GT(verified, 0);
}

TEST(VariationStressTest, TrainingWorkload) {
  for (uint64_t seed = 1; seed <= 2; ++seed)
    breed("testdata/digits_mlp_train", seed, 15);
}

TEST(VariationStressTest, PredictionWorkload) {
  breed("testdata/digits_mlp_predict", 1, 15);
}

} // namespace
} // namespace gevo
