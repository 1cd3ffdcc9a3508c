//===- variation_test.cc - Mutation's retune step on the prediction model -===//
//
// With retuning on, a mutation of a list that holds a shrink moves that
// shrink to a neighbouring selection of the same dimension instead of adding
// an edit; a list with nothing to tune gets an edit added as before, and
// with retuning off a shrink is never moved.
//
//===----------------------------------------------------------------------===//

#include <random>

#include "gevo/eval/workload/workload.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/variation.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

class VariationTest : public ::testing::Test {
protected:
  void SetUp() override {
    absl::StatusOr<WorkloadSpec> spec =
        loadWorkloadSpec(findRunfile("testdata/digits_mlp_predict"));
    ASSERT_TRUE(spec.ok()) << spec.status();
    auto loaded = loadModule(*context, spec->modulePath);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    baseline = std::move(*loaded);
  }

  /// An edit of `kind` proposed on the unmodified model.
  Edit propose(EditKind kind, std::mt19937_64 &rng) {
    absl::Status last;
    for (int i = 0; i < 50; ++i) {
      absl::StatusOr<Edit> edit =
          proposeEdit(*baseline, kind, MutationOptions(), rng);
      if (edit.ok())
        return *edit;
      last = edit.status();
    }
    ADD_FAILURE() << "no " << toString(kind) << " edit: " << last;
    return {};
  }
  Edit aShrink(std::mt19937_64 &rng) { return propose(EditKind::Shrink, rng); }

  std::unique_ptr<mlir::MLIRContext> context = createContext();
  mlir::OwningOpRef<mlir::ModuleOp> baseline;
};

TEST_F(VariationTest, RetuningMovesTheShrinkInsteadOfAddingAnEdit) {
  Variation variation(*baseline, MutationOptions());
  std::mt19937_64 rng(3);
  int moved = 0;
  for (int i = 0; i < 12; ++i) {
    std::vector<Edit> list = {aShrink(rng)};
    std::vector<Edit> child = variation.mutate(list, 0.0, 1.0, rng);
    ASSERT_EQ(child.size(), 1u);
    EXPECT_EQ(child[0].kind, EditKind::Shrink);
    EXPECT_EQ(child[0].target, list[0].target);
    EXPECT_EQ(child[0].dim, list[0].dim);
    moved += !(child[0].keep == list[0].keep);
    // The child builds with its one edit.
    EXPECT_EQ(variation.build(child).edits.size(), 1u);
  }
  // A shrink with no neighbour would be kept as it is; most have one.
  EXPECT_GE(moved, 10);
}

TEST_F(VariationTest, WithoutRetuningOrTunableEditsAnEditIsAdded) {
  Variation variation(*baseline, MutationOptions());
  std::mt19937_64 rng(4);
  std::vector<Edit> shrink = {aShrink(rng)};
  std::vector<Edit> child = variation.mutate(shrink, 0.0, 0.0, rng);
  ASSERT_EQ(child.size(), 2u);
  EXPECT_EQ(child[0], shrink[0]);
  // A swap has nothing to tune: retuning falls back to adding an edit.
  Edit swap = propose(EditKind::Swap, rng);
  std::vector<Edit> list = {swap};
  EXPECT_FALSE(variation.retune(list, rng).has_value());
  child = variation.mutate(list, 0.0, 1.0, rng);
  ASSERT_EQ(child.size(), 2u);
  EXPECT_EQ(child[0], swap);
}

// Issue #33: replay refuses a patch with the same edit twice, so neither the
// search nor //gevo:mutate may draw an edit its list holds. With the same
// random state, the proposal a list already holds is drawn again.
TEST_F(VariationTest, NoProposalRepeatsAnEditOfItsList) {
  MutationOptions options;
  options.kinds = {EditKind::Constant};
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::mt19937_64 first(seed), again(seed);
    absl::StatusOr<Edit> edit = proposeAnyEdit(*baseline, options, first);
    ASSERT_TRUE(edit.ok()) << edit.status();
    std::vector<Edit> taken = {*edit};
    absl::StatusOr<Edit> next =
        proposeAnyEdit(*baseline, options, again, 50, &taken);
    ASSERT_TRUE(next.ok()) << next.status();
    EXPECT_FALSE(*next == *edit) << "seed " << seed;
    std::mt19937_64 same(seed);
    absl::StatusOr<Edit> unrestricted =
        proposeAnyEdit(*baseline, options, same);
    ASSERT_TRUE(unrestricted.ok());
    EXPECT_TRUE(*unrestricted == *edit); // the draw itself is reproducible
  }
  // A search's lists: 40 edits drawn one after another, none twice.
  Variation variation(*baseline, MutationOptions());
  std::mt19937_64 rng(5);
  std::vector<Edit> list = variation.randomList(40, rng);
  for (int i = 0; i < 20; ++i)
    list = variation.mutate(list, 0.1, 0.3, rng);
  for (size_t i = 0; i < list.size(); ++i)
    for (size_t j = i + 1; j < list.size(); ++j)
      EXPECT_FALSE(list[i] == list[j]) << i << " and " << j;
}

// A child bred on a VariantContext is remembered as its build where its new
// edit was verified: building it then applies nothing again, gives the
// module buildVariant() makes, and the draws match a Variation on the module
// itself, seed for seed.
TEST_F(VariationTest, AMutatedChildIsBuiltWhereItsEditWasDrawn) {
  absl::StatusOr<std::unique_ptr<VariantContext>> variants =
      VariantContext::create(*baseline, 0);
  ASSERT_TRUE(variants.ok()) << variants.status();
  Variation onContext(**variants, MutationOptions());
  Variation plain(*baseline, MutationOptions());
  std::mt19937_64 rngA(5), rngB(5);
  std::vector<Edit> listA, listB;
  int grown = 0;
  for (int i = 0; i < 8; ++i) {
    std::vector<Edit> childA = onContext.mutate(listA, 0.0, 0.0, rngA);
    std::vector<Edit> childB = plain.mutate(listB, 0.0, 0.0, rngB);
    ASSERT_TRUE(childA == childB) << "generation " << i;
    if (childA.size() > listA.size()) {
      int64_t reusedBefore = (*variants)->reusedEdits();
      BuiltVariant built = (*variants)->build(childA);
      EXPECT_EQ((*variants)->reusedEdits() - reusedBefore,
                static_cast<int64_t>(childA.size()));
      EXPECT_EQ(keyOf(built),
                modelFingerprint(*buildVariant(*baseline, childA).module));
      ++grown;
    }
    listA = childA;
    listB = childB;
  }
  EXPECT_GT(grown, 3);
}

} // namespace
} // namespace gevo
