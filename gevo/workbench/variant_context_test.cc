//===- variant_context_test.cc - Variants built in a recycled context -----===//
//
// The copy of the unmodified module in a VariantContext is the original in
// every way a search can tell (printed form, locations, the edits drawn on
// it, the keys of the variants built from it), before and after a recycle,
// a variant built before a recycle stays valid, and inspect() reads the
// remembered build itself.
//
//===----------------------------------------------------------------------===//

#include "gevo/workbench/variant_context.h"

#include <map>
#include <random>
#include <utility>

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// The module printed with its locations.
std::string withLocations(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  return text;
}

/// Each value's uses in use-list order, as (user's pre-order position,
/// operand number), value by value in pre-order.
std::vector<std::vector<std::pair<int, int>>> useLists(mlir::ModuleOp module) {
  std::map<mlir::Operation *, int> position;
  module->walk<mlir::WalkOrder::PreOrder>(
      [&](mlir::Operation *op) { position.emplace(op, position.size()); });
  std::vector<std::vector<std::pair<int, int>>> lists;
  auto add = [&](mlir::Value value) {
    lists.emplace_back();
    for (mlir::OpOperand &use : value.getUses())
      lists.back().emplace_back(position[use.getOwner()],
                                use.getOperandNumber());
  };
  module->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    for (mlir::Value result : op->getResults())
      add(result);
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        for (mlir::Value argument : block.getArguments())
          add(argument);
  });
  return lists;
}

class VariantContextTest : public testing::Test {
protected:
  void SetUp() override {
    context = createContext();
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> loaded = loadModule(
        *context, findRunfile("testdata/digits_mlp_predict/model.mlir"));
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    original = std::move(*loaded);
  }

  /// A list of up to four edits drawn on the original, each on the module
  /// the earlier ones made (as random search draws them).
  std::vector<Edit> randomList(std::mt19937_64 &rng) {
    std::vector<Edit> edits;
    mlir::OwningOpRef<mlir::ModuleOp> module(original->clone());
    for (int i = 0, n = 1 + rng() % 4; i < n; ++i) {
      absl::StatusOr<Edit> edit =
          proposeAnyEdit(*module, MutationOptions(), rng);
      if (!edit.ok() || !applyEdit(*module, *edit).ok())
        break;
      edits.push_back(*edit);
    }
    return edits;
  }

  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> original;
};

TEST_F(VariantContextTest, CopiesTheModuleWithItsLocations) {
  absl::StatusOr<std::unique_ptr<VariantContext>> variants =
      VariantContext::create(*original, 0);
  ASSERT_TRUE(variants.ok()) << variants.status();
  mlir::ModuleOp copy = (*variants)->baseline();
  EXPECT_NE(copy->getContext(), original->getContext());
  EXPECT_EQ(withLocations(copy), withLocations(*original));
  EXPECT_EQ(modelFingerprint(copy), modelFingerprint(*original));
}

TEST_F(VariantContextTest, DrawsTheEditsTheOriginalDraws) {
  absl::StatusOr<std::unique_ptr<VariantContext>> variants =
      VariantContext::create(*original, 1);
  ASSERT_TRUE(variants.ok()) << variants.status();
  int proposed = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    for (EditKind kind : kAllEditKinds) {
      MutationOptions options;
      options.kinds = {kind};
      std::mt19937_64 onOriginal(seed), onCopy(seed);
      absl::StatusOr<Edit> expected =
          proposeAnyEdit(*original, options, onOriginal, 3);
      absl::StatusOr<Edit> got =
          proposeAnyEdit((*variants)->baseline(), options, onCopy, 3);
      ASSERT_EQ(got.ok(), expected.ok()) << toString(kind) << " " << seed;
      if (got.ok()) {
        EXPECT_TRUE(*got == *expected) << toString(kind) << " " << seed;
        ++proposed;
      }
    }
    (*variants)->count(1); // a fresh copy for every seed after the first
    absl::StatusOr<bool> recycled = (*variants)->recycleIfDue();
    ASSERT_TRUE(recycled.ok() && *recycled) << recycled.status();
  }
  EXPECT_EQ((*variants)->recycled(), 60);
  EXPECT_GT(proposed, 60 * 4);
}

TEST_F(VariantContextTest, BuildsVariantsWithTheOriginalsKeys) {
  absl::StatusOr<std::unique_ptr<VariantContext>> variants =
      VariantContext::create(*original, 5);
  ASSERT_TRUE(variants.ok()) << variants.status();
  std::mt19937_64 rng(7);
  int shrinks = 0;
  for (int i = 0; i < 40; ++i) {
    std::vector<Edit> edits = randomList(rng);
    BuiltVariant expected = buildVariant(*original, edits);
    BuiltVariant got = (*variants)->build(edits);
    EXPECT_EQ(got.module->getContext(), (*variants)->baseline()->getContext());
    EXPECT_EQ(modelFingerprint(*got.module),
              modelFingerprint(*expected.module));
    EXPECT_EQ(got.edits.size(), expected.edits.size());
    EXPECT_EQ(got.dropped, expected.dropped);
    for (const Edit &edit : edits)
      shrinks += edit.kind == EditKind::Shrink;
    (*variants)->count(1);
    ASSERT_TRUE((*variants)->recycleIfDue().ok());
  }
  EXPECT_EQ((*variants)->recycled(), 8);
  EXPECT_GT(shrinks, 0); // the edits that unique new constants were built
}

TEST_F(VariantContextTest, RecyclesOnlyWhenDue) {
  absl::StatusOr<std::unique_ptr<VariantContext>> variants =
      VariantContext::create(*original, 3);
  ASSERT_TRUE(variants.ok()) << variants.status();
  mlir::MLIRContext *first = (*variants)->baseline()->getContext();
  (*variants)->count(2);
  absl::StatusOr<bool> recycled = (*variants)->recycleIfDue();
  ASSERT_TRUE(recycled.ok());
  EXPECT_FALSE(*recycled);
  EXPECT_EQ((*variants)->baseline()->getContext(), first);
  (*variants)->count(1);
  recycled = (*variants)->recycleIfDue();
  ASSERT_TRUE(recycled.ok());
  EXPECT_TRUE(*recycled);
  EXPECT_EQ((*variants)->recycled(), 1);
  // Due again only after three more.
  recycled = (*variants)->recycleIfDue();
  ASSERT_TRUE(recycled.ok());
  EXPECT_FALSE(*recycled);
}

TEST_F(VariantContextTest, AVariantOutlivesTheRecycleOfItsContext) {
  absl::StatusOr<std::unique_ptr<VariantContext>> variants =
      VariantContext::create(*original, 1);
  ASSERT_TRUE(variants.ok()) << variants.status();
  std::mt19937_64 rng(3);
  std::vector<Edit> edits = randomList(rng);
  ASSERT_FALSE(edits.empty());
  BuiltVariant before = (*variants)->build(edits);
  std::string keyBefore = modelFingerprint(*before.module);
  (*variants)->count(1);
  absl::StatusOr<bool> recycled = (*variants)->recycleIfDue();
  ASSERT_TRUE(recycled.ok() && *recycled);
  EXPECT_NE(before.module->getContext(), (*variants)->baseline()->getContext());
  // Still a whole module of a live context: it prints as it did and as the
  // same edits built in the new context do.
  EXPECT_EQ(modelFingerprint(*before.module), keyBefore);
  EXPECT_EQ(modelFingerprint(*(*variants)->build(edits).module), keyBefore);
}

TEST_F(VariantContextTest, StartsFromTheLongestListBuiltBefore) {
  absl::StatusOr<std::unique_ptr<VariantContext>> variants =
      VariantContext::create(*original, 0);
  ASSERT_TRUE(variants.ok()) << variants.status();
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int i = 0; i < 30; ++i) {
    std::vector<Edit> edits = randomList(rng);
    if (edits.size() < 2)
      continue;
    // The parent's list, then the child's: one more edit, and the last one
    // again (it names an op the first one changed or removed, or applies
    // twice: either way as buildVariant() does).
    std::vector<Edit> parent(edits.begin(), edits.end() - 1);
    std::vector<Edit> child = edits;
    child.push_back(edits.back());
    int64_t reusedBefore = (*variants)->reusedBuilds();
    for (const std::vector<Edit> *list : {&parent, &child, &child}) {
      BuiltVariant expected = buildVariant(*original, *list);
      BuiltVariant got = (*variants)->build(*list);
      EXPECT_EQ(modelFingerprint(*got.module),
                modelFingerprint(*expected.module));
      EXPECT_TRUE(got.edits == expected.edits);
      EXPECT_EQ(got.dropped, expected.dropped);
      EXPECT_EQ(keyOf(got), modelFingerprint(*expected.module));
      // The same use-list orders too: the mutation operators draw from them.
      EXPECT_EQ(useLists(*got.module), useLists(*expected.module));
      // What the caller does to its module is not remembered.
      got.module->getBody()->clear();
    }
    // The child started from its parent, and then from itself.
    EXPECT_GE((*variants)->reusedBuilds() - reusedBefore, 2);
    ++checked;
  }
  EXPECT_GT(checked, 5);
  EXPECT_GT((*variants)->reusedEdits(), 2 * checked);
}

TEST_F(VariantContextTest, InspectsTheRememberedBuildWithoutACopy) {
  absl::StatusOr<std::unique_ptr<VariantContext>> variants =
      VariantContext::create(*original, 0);
  ASSERT_TRUE(variants.ok()) << variants.status();
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20; ++i) {
    std::vector<Edit> edits = randomList(rng);
    BuiltVariant expected = buildVariant(*original, edits);
    std::string key = modelFingerprint(*expected.module);
    mlir::Operation *first = nullptr, *second = nullptr;
    // Unbuilt: built, remembered and keyed, then seen where it lies.
    (*variants)->inspect(edits, [&](const BuiltVariant &built) {
      EXPECT_EQ(built.key, key);
      EXPECT_EQ(modelFingerprint(*built.module), key);
      EXPECT_TRUE(built.edits == expected.edits);
      first = built.module.get().getOperation();
    });
    // Again: the same module, not a copy of it.
    (*variants)->inspect(edits, [&](const BuiltVariant &built) {
      EXPECT_EQ(built.key, key);
      second = built.module.get().getOperation();
    });
    EXPECT_NE(first, nullptr);
    EXPECT_EQ(first, second);
    // A build hands out a copy of it, keyed alike, with its use-list orders.
    BuiltVariant built = (*variants)->build(edits);
    EXPECT_NE(built.module.get().getOperation(), first);
    EXPECT_EQ(keyOf(built), key);
    EXPECT_EQ(modelFingerprint(*built.module), key);
    EXPECT_EQ(useLists(*built.module), useLists(*expected.module));
  }
}

} // namespace
} // namespace gevo
