//===- recipe_test.cc - A recipe makes the same child wherever it is bred -===//
//
// Recipes and bred children survive their text form exactly, and a recipe
// bred in two processes' worth of state (two contexts, each its own parse
// of the workload) makes the same child: same edits, same key, the key the
// edits build.
//
//===----------------------------------------------------------------------===//

#include "gevo/search/recipe.h"

#include <random>

#include "gevo/eval/workload/workload.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/variation.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// One process's view: its own context and parse of the workload.
struct Breeding {
  Breeding() {
    absl::StatusOr<WorkloadSpec> loaded =
        loadWorkloadSpec(findRunfile("testdata/digits_mlp_train"));
    EXPECT_TRUE(loaded.ok()) << loaded.status();
    spec = *loaded;
    auto module = loadModule(*context, spec.modulePath);
    EXPECT_TRUE(module.ok()) << module.status();
    baseline = std::move(*module);
  }
  Bred breed(const Recipe &recipe) {
    Variation variation(*baseline, MutationOptions());
    // Through the text both ways, as a rank gets and answers it.
    absl::StatusOr<Recipe> sent = parseRecipe(printRecipe(recipe));
    EXPECT_TRUE(sent.ok()) << sent.status();
    absl::StatusOr<Bred> back =
        parseBred(printBred(variation.breed(*sent, spec.entry)));
    EXPECT_TRUE(back.ok()) << back.status();
    return *back;
  }
  std::string keyOfList(const std::vector<Edit> &edits) {
    Variation variation(*baseline, MutationOptions());
    BuiltVariant built = variation.build(edits);
    EXPECT_EQ(built.edits, edits);
    return modelFingerprint(*built.module);
  }

  WorkloadSpec spec;
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  mlir::OwningOpRef<mlir::ModuleOp> baseline;
};

TEST(Recipe, TextKeepsEveryField) {
  Breeding here;
  Recipe recipe;
  recipe.kind = Recipe::Kind::Random;
  recipe.length = 3;
  recipe.seed = 18446744073709551557ull; // a 64-bit seed, whole
  Bred drawn = here.breed(recipe);
  ASSERT_FALSE(drawn.edits.empty());

  Recipe mutate;
  mutate.base = drawn.edits;
  mutate.mutate = false;
  mutate.removeRate = 0.2;
  mutate.retuneRate = 1.0 / 3;
  mutate.weights = {0.1, 0.7, 1e-9};
  mutate.seed = 7;
  mutate.withCost = true;
  absl::StatusOr<Recipe> back = parseRecipe(printRecipe(mutate));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->kind, Recipe::Kind::Mutate);
  EXPECT_EQ(back->base, mutate.base);
  EXPECT_FALSE(back->mutate);
  EXPECT_EQ(back->removeRate, 0.2);
  EXPECT_EQ(back->retuneRate, 1.0 / 3);
  EXPECT_EQ(back->weights, mutate.weights);
  EXPECT_EQ(back->seed, 7u);
  EXPECT_TRUE(back->withCost);
  absl::StatusOr<Recipe> random = parseRecipe(printRecipe(recipe));
  ASSERT_TRUE(random.ok()) << random.status();
  EXPECT_EQ(random->seed, recipe.seed);
  EXPECT_EQ(random->length, 3);

  // A plain patch is not a recipe; a bad number is named.
  Bred bred{drawn.edits, drawn.key, 12.5};
  EXPECT_FALSE(parseRecipe(printBred(bred)).ok());
  std::string text = printRecipe(mutate);
  text.replace(text.find("seed=7"), 6, "seed=x");
  absl::StatusOr<Recipe> bad = parseRecipe(text);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("seed=x"), std::string::npos);
  absl::StatusOr<Bred> bredBack = parseBred(printBred(bred));
  ASSERT_TRUE(bredBack.ok()) << bredBack.status();
  EXPECT_EQ(bredBack->edits, bred.edits);
  EXPECT_EQ(bredBack->key, bred.key);
  EXPECT_EQ(bredBack->staticCost, 12.5);
}

TEST(Recipe, SameChildInEveryProcess) {
  Breeding one, two;
  std::mt19937_64 seeds(11);
  int differ = 0;
  Bred previous;
  for (int i = 0; i < 6; ++i) {
    Recipe random;
    random.kind = Recipe::Kind::Random;
    random.length = 1 + i % 3;
    random.seed = seeds();
    Bred a = one.breed(random), b = two.breed(random);
    ASSERT_FALSE(a.edits.empty());
    EXPECT_EQ(a.edits, b.edits);
    EXPECT_EQ(a.key, b.key);
    EXPECT_EQ(a.key, one.keyOfList(a.edits));
    EXPECT_EQ(a.staticCost, -1); // not asked

    Recipe mutate;
    mutate.base = a.edits;
    mutate.removeRate = 0.3;
    mutate.seed = seeds();
    mutate.withCost = true;
    Bred c = one.breed(mutate), d = two.breed(mutate);
    EXPECT_EQ(c.edits, d.edits);
    EXPECT_EQ(c.key, d.key);
    EXPECT_EQ(c.key, two.keyOfList(c.edits));
    EXPECT_GT(c.staticCost, 0);
    EXPECT_EQ(c.staticCost, d.staticCost);
    EXPECT_NE(c.edits, a.edits); // mutated: an edit added or removed
    differ += i > 0 && a.key != previous.key;
    previous = a;
  }
  EXPECT_GT(differ, 0); // the seed decides the child
}

} // namespace
} // namespace gevo
