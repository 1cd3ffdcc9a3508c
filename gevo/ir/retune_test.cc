//===- retune_test.cc - Neighbours of shrink and constant edits -----------===//
//
// retuneEdit() moves an edit already in a list to a neighbour: a shrink of a
// hidden layer keeps a quarter more or fewer units by the same rule (the
// heaviest units stay the heaviest), or as many by another rule; a constant
// moves by a factor of 1.25 (an integer by one). Every neighbour applies and
// verifies; edits with nothing to tune are refused. pruningSeeds() keeps the
// heaviest three quarters of the hidden units.
//
//===----------------------------------------------------------------------===//

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/find_op_testing.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// x(2x4) -> 8 hidden units (bias + ReLU) -> 2 outputs; unit j's weights
/// are all j + 1, so the heaviest units are the last ones. %step is a float
/// scale and %n an integer constant the tests retune.
std::string mlp() {
  std::vector<std::string> rows, w2;
  for (int i = 0; i < 4; ++i) {
    std::vector<std::string> row;
    for (int j = 0; j < 8; ++j)
      row.push_back(absl::StrCat(j + 1, ".0"));
    rows.push_back(absl::StrCat("[", absl::StrJoin(row, ", "), "]"));
  }
  for (int j = 0; j < 8; ++j)
    w2.push_back(absl::StrCat("[", j + 1, ".0, ", -(j + 1), ".0]"));
  return absl::StrCat(R"(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, index) {
  %zero = arith.constant 0.0 : f32
  %step = arith.constant 0.5 : f32
  %n = arith.constant 3 : index
  %W1 = arith.constant dense<[)",
                      absl::StrJoin(rows, ", "), R"(]> : tensor<4x8xf32>
  %W2 = arith.constant dense<[)",
                      absl::StrJoin(w2, ", "), R"(]> : tensor<8x2xf32>
  %e1 = tensor.empty() : tensor<2x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %mm1 = linalg.matmul ins(%x, %W1 : tensor<2x4xf32>, tensor<4x8xf32>) outs(%z1 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm1 : tensor<2x8xf32>) outs(%e1 : tensor<2x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %step : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %e2 = tensor.empty() : tensor<2x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %out = linalg.matmul ins(%h, %W2 : tensor<2x8xf32>, tensor<8x2xf32>) outs(%z2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %out, %n : tensor<2x2xf32>, index
}
)");
}

class RetuneTest : public ::testing::Test {
protected:
  void SetUp() override {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> parsed =
        parseModule(*context, mlp(), "retune.mlir");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    module = std::move(*parsed);
  }

  /// The op named `name#ordinal` in @main.
  OpRef ref(const std::string &name, int ordinal) {
    auto found = findOp(*module, name, ordinal);
    if (!found)
      ADD_FAILURE() << "no " << name << "#" << ordinal;
    return found ? found->second : OpRef();
  }

  Edit hiddenShrink(Selection keep) {
    Edit edit;
    edit.kind = EditKind::Shrink;
    edit.target = ref("linalg.generic", 0);
    edit.dim = 1;
    edit.keep = std::move(keep);
    return edit;
  }

  Edit constant(int ordinal, const std::string &literal) {
    Edit edit;
    edit.kind = EditKind::Constant;
    edit.target = ref("arith.constant", ordinal);
    edit.literal = literal;
    return edit;
  }

  /// retuneEdit() `draws` times from one generator; every neighbour must
  /// apply to a copy of the module and verify.
  std::vector<Edit> neighbours(const Edit &edit, int draws) {
    std::mt19937_64 rng(11);
    std::vector<Edit> out;
    for (int i = 0; i < draws; ++i) {
      absl::StatusOr<Edit> moved =
          retuneEdit(*module, edit, MutationOptions(), rng);
      if (!moved.ok())
        continue;
      mlir::OwningOpRef<mlir::ModuleOp> copy(module->clone());
      EXPECT_TRUE(applyEdit(*copy, *moved).ok()) << toString(moved->keep);
      EXPECT_TRUE(mlir::succeeded(mlir::verify(*copy)));
      out.push_back(*moved);
    }
    return out;
  }

  std::unique_ptr<mlir::MLIRContext> context = createContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(RetuneTest, HeaviestHalfMovesAQuarterOrChangesRule) {
  // The heaviest half: units 4..7.
  Edit edit = hiddenShrink({0, 0, 1, {4, 5, 6, 7}});
  std::vector<Edit> moved = neighbours(edit, 40);
  ASSERT_GE(moved.size(), 30u);
  std::set<std::string> seen;
  for (const Edit &m : moved) {
    EXPECT_EQ(m.kind, EditKind::Shrink);
    EXPECT_EQ(m.target, edit.target);
    EXPECT_EQ(m.dim, 1);
    EXPECT_FALSE(m.keep == edit.keep);
    int64_t count = m.keep.count();
    if (count == 2) {
      EXPECT_EQ(m.keep.indices, (std::vector<int64_t>{6, 7}));
    } else if (count == 6) {
      EXPECT_EQ(m.keep.indices, (std::vector<int64_t>{2, 3, 4, 5, 6, 7}));
    } else {
      // As many by another rule: a prefix, a suffix or a stride.
      EXPECT_EQ(count, 4);
      EXPECT_TRUE(m.keep.indices.empty());
    }
    seen.insert(toString(m.keep));
  }
  // Both quarter moves and all three other rules turn up.
  EXPECT_TRUE(seen.count("[2,3,4,5,6,7]"));
  EXPECT_TRUE(seen.count("[6,7]"));
  EXPECT_TRUE(seen.count("[0:4]"));
  EXPECT_TRUE(seen.count("[4:8]"));
  EXPECT_TRUE(seen.count("[0:8:2]"));
}

TEST_F(RetuneTest, AQuarterPrefixOnlyGrowsAndAStrideKeepsItsOffset) {
  for (const Edit &m : neighbours(hiddenShrink({0, 2, 1, {}}), 30))
    EXPECT_TRUE(m.keep.count() == 4 || m.keep.count() == 2) << toString(m.keep);
  // Every 2nd from 1, one quarter fewer: every 4th from 1.
  bool quarter = false;
  for (const Edit &m : neighbours(hiddenShrink({1, 8, 2, {}}), 30))
    if (m.keep.count() == 2 && m.keep.indices.empty() && m.keep.step == 4) {
      quarter = true;
      EXPECT_EQ(m.keep.start, 1);
    }
  EXPECT_TRUE(quarter);
}

TEST_F(RetuneTest, ConstantsMoveByAQuarterOrByOne) {
  std::set<std::string> floats, integers;
  // arith.constant#1 is %step (f32), #2 is %n (index).
  for (const Edit &m : neighbours(constant(1, "0.5"), 20))
    floats.insert(m.literal);
  EXPECT_EQ(floats, (std::set<std::string>{"0.4", "0.625"}));
  for (const Edit &m : neighbours(constant(2, "3"), 20))
    integers.insert(m.literal);
  EXPECT_EQ(integers, (std::set<std::string>{"2", "4"}));
  // Zero has no neighbour by a factor.
  EXPECT_TRUE(neighbours(constant(1, "0"), 5).empty());
}

TEST_F(RetuneTest, EditsWithNothingToTuneAreRefused) {
  Edit del;
  del.kind = EditKind::Delete;
  del.target = ref("linalg.generic", 0);
  EXPECT_FALSE(isTunable(del));
  std::mt19937_64 rng(1);
  absl::StatusOr<Edit> moved = retuneEdit(*module, del, MutationOptions(), rng);
  EXPECT_EQ(moved.status().code(), absl::StatusCode::kInvalidArgument);
  // A shrink whose dimension reaches the return cannot move either.
  Edit out;
  out.kind = EditKind::Shrink;
  out.target = ref("linalg.matmul", 1);
  out.dim = 1;
  out.keep = {0, 1, 1, {}};
  EXPECT_FALSE(retuneEdit(*module, out, MutationOptions(), rng).ok());
}

TEST_F(RetuneTest, PruningSeedsKeepTheHeaviestThreeQuartersOfTheHiddenUnits) {
  std::vector<Edit> seeds = pruningSeeds(*module, MutationOptions());
  ASSERT_FALSE(seeds.empty());
  for (const Edit &seed : seeds) {
    EXPECT_EQ(seed.kind, EditKind::Shrink);
    // Only the hidden dimension (8 units) can narrow: the input's 4 columns
    // and the 2 outputs reach the function's boundary.
    EXPECT_EQ(seed.keep.indices, (std::vector<int64_t>{2, 3, 4, 5, 6, 7}))
        << toString(seed.keep);
    mlir::OwningOpRef<mlir::ModuleOp> copy(module->clone());
    ASSERT_TRUE(applyEdit(*copy, seed).ok());
    EXPECT_TRUE(mlir::succeeded(mlir::verify(*copy)));
  }
  // Not when the user's operators leave shrink out.
  MutationOptions noShrink;
  noShrink.kinds = {EditKind::Delete, EditKind::Constant};
  EXPECT_TRUE(pruningSeeds(*module, noShrink).empty());
}

TEST_F(RetuneTest, HalfTheShrinksDrawnKeepTheHeaviestUnits) {
  // The hidden layer's units carry weights, so about half the proposals
  // list the heaviest units (the last ones here); the rest are ranges.
  std::mt19937_64 rng(5);
  int drawn = 0, heaviest = 0;
  for (int i = 0; i < 200; ++i) {
    absl::StatusOr<Edit> edit =
        proposeEdit(*module, EditKind::Shrink, MutationOptions(), rng);
    if (!edit.ok())
      continue;
    ++drawn;
    if (edit->keep.indices.empty())
      continue;
    ++heaviest;
    EXPECT_EQ(edit->keep.indices.back(), 7) << toString(edit->keep);
  }
  ASSERT_GE(drawn, 150);
  EXPECT_GT(heaviest, drawn * 2 / 5);
  EXPECT_LT(heaviest, drawn * 3 / 5);
}

} // namespace
} // namespace gevo
