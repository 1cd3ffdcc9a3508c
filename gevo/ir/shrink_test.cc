//===- shrink_test.cc - Shrink edits against networks written by hand -----===//
//
// A shrink of a hidden layer must give exactly the network written by hand
// with the smaller shapes: both are canonicalised and compared as text, so
// equal text means equal outputs. Training loops (iteration arguments,
// weights computed from linalg.index), kept-index lists, and refusals are
// covered too.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/find_op_testing.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/shrink.h"
#include "gevo/ir/shrink_testing.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

// x(3x4) -> 4 hidden units (ReLU) -> 2 outputs.
constexpr char kMlp[] = R"(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @main(%x: tensor<3x4xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %W1 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0],
      [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %b1 = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %W2 = arith.constant dense<[[1.0, -1.0], [2.0, -2.0], [3.0, -3.0],
      [4.0, -4.0]]> : tensor<4x2xf32>
  %e1 = tensor.empty() : tensor<3x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %mm1 = linalg.matmul ins(%x, %W1 : tensor<3x4xf32>, tensor<4x4xf32>) outs(%z1 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %h = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm1, %b1 : tensor<3x4xf32>, tensor<4xf32>) outs(%e1 : tensor<3x4xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  %e2 = tensor.empty() : tensor<3x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %out = linalg.matmul ins(%h, %W2 : tensor<3x4xf32>, tensor<4x2xf32>) outs(%z2 : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %out : tensor<3x2xf32>
}
)";

// The same network with hidden units 1 and 3 kept, written by hand.
constexpr char kMlpUnits13[] = R"(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @main(%x: tensor<3x4xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %W1 = arith.constant dense<[[2.0, 4.0], [6.0, 8.0], [10.0, 12.0],
      [14.0, 16.0]]> : tensor<4x2xf32>
  %b1 = arith.constant dense<[0.2, 0.4]> : tensor<2xf32>
  %W2 = arith.constant dense<[[2.0, -2.0], [4.0, -4.0]]> : tensor<2x2xf32>
  %e1 = tensor.empty() : tensor<3x2xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %mm1 = linalg.matmul ins(%x, %W1 : tensor<3x4xf32>, tensor<4x2xf32>) outs(%z1 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %h = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm1, %b1 : tensor<3x2xf32>, tensor<2xf32>) outs(%e1 : tensor<3x2xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  %e2 = tensor.empty() : tensor<3x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %out = linalg.matmul ins(%h, %W2 : tensor<3x2xf32>, tensor<2x2xf32>) outs(%z2 : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %out : tensor<3x2xf32>
}
)";

// Weights computed from linalg.index and trained in a loop; the input is an
// argument, so shrinking the input features slices it.
constexpr char kTraining[] = R"(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %W0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x4xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %j64 = arith.index_cast %j : index to i64
    %f = arith.sitofp %j64 : i64 to f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %W = scf.for %i = %c0 to %c3 step %c1 iter_args(%w = %W0) -> (tensor<4x4xf32>) {
    %en = tensor.empty() : tensor<4x4xf32>
    %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%w : tensor<4x4xf32>) outs(%en : tensor<4x4xf32>) {
    ^bb0(%v: f32, %o: f32):
      %d = arith.mulf %v, %v : f32
      linalg.yield %d : f32
    } -> tensor<4x4xf32>
    scf.yield %next : tensor<4x4xf32>
  }
  %ez = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ez : tensor<2x4xf32>) -> tensor<2x4xf32>
  %out = linalg.matmul ins(%x, %W : tensor<2x4xf32>, tensor<4x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %out : tensor<2x4xf32>
}
)";

class ShrinkTest : public ShrinkTestBase {
protected:
  /// The op named `name#ordinal` in @main.
  OpRef ref(mlir::ModuleOp module, const std::string &name, int ordinal) {
    auto found = findOp(module, name, ordinal);
    if (!found)
      ADD_FAILURE() << "no " << name << "#" << ordinal;
    return found ? found->second : OpRef();
  }

  absl::Status shrink(mlir::ModuleOp module, const std::string &opName,
                      int ordinal, int dim, Selection keep) {
    return shrinkAt(module, ref(module, opName, ordinal), dim, std::move(keep));
  }
};

TEST_F(ShrinkTest, StridedHiddenLayerEqualsTheNetworkWrittenByHand) {
  auto module = parse(kMlp);
  // The bias + ReLU generic's units, every 2nd from 1.
  ASSERT_TRUE(shrink(*module, "linalg.generic", 0, 1, {1, 4, 2, {}}).ok());
  auto expected = parse(kMlpUnits13);
  EXPECT_EQ(canonical(*module), canonical(*expected));
}

TEST_F(ShrinkTest, IndexListFromAnyOpOfTheWebGivesTheSameNetwork) {
  auto module = parse(kMlp);
  // Seeded at the first matmul instead: the web is the same.
  ASSERT_TRUE(shrink(*module, "linalg.matmul", 0, 1, {0, 0, 1, {1, 3}}).ok());
  auto expected = parse(kMlpUnits13);
  EXPECT_EQ(canonical(*module), canonical(*expected));
}

TEST_F(ShrinkTest, WeightNormsRankTheUnits) {
  auto module = parse(kMlp);
  mlir::Operation *hidden = nullptr;
  module->walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() == "linalg.generic")
      hidden = op;
  });
  absl::StatusOr<ShrinkWeb> web = analyzeShrink(hidden->getResult(0), 1);
  ASSERT_TRUE(web.ok()) << web.status();
  EXPECT_EQ(web->size, 4);
  ASSERT_EQ(web->weight.size(), 4u);
  // W1's columns, b1 and W2's rows all grow with the unit's number.
  for (int i = 1; i < 4; ++i)
    EXPECT_GT(web->weight[i], web->weight[i - 1]);
  EXPECT_TRUE(web->allowsIndexList);
}

TEST_F(ShrinkTest, ADimensionReachingTheReturnIsRefused) {
  auto module = parse(kMlp);
  absl::Status status = shrink(*module, "linalg.matmul", 1, 1, {0, 1, 1, {}});
  EXPECT_THAT(std::string(status.message()), HasSubstr("func.return"));
}

TEST_F(ShrinkTest, SelectionsThatKeepAllOrReachPastTheEndAreRefused) {
  auto module = parse(kMlp);
  EXPECT_THAT(
      std::string(
          shrink(*module, "linalg.generic", 0, 1, {0, 4, 1, {}}).message()),
      HasSubstr("drops at least one"));
  EXPECT_THAT(
      std::string(
          shrink(*module, "linalg.generic", 0, 1, {0, 0, 1, {2, 7}}).message()),
      HasSubstr("reaches past"));
}

TEST_F(ShrinkTest, TrainingLoopNarrowsInitLoopAndUseAndRemapsTheIndex) {
  auto module = parse(kTraining);
  // The weights' rows, every 2nd from 1: W0 reads linalg.index 0, the loop
  // carries W, and the matmul's reduction slices x's columns the same way.
  absl::Status status = shrink(*module, "linalg.generic", 0, 0, {1, 4, 2, {}});
  ASSERT_TRUE(status.ok()) << status;
  std::string text = canonical(*module);
  EXPECT_THAT(text, HasSubstr("-> (tensor<2x4xf32>)"));
  EXPECT_THAT(text, HasSubstr("[0, 1] [2, 2] [1, 2] : tensor<2x4xf32> to "
                              "tensor<2x2xf32>"));
  // Row i of the narrowed weights is row 2i+1 of the original.
  EXPECT_THAT(text, HasSubstr("arith.muli"));
  EXPECT_THAT(text, HasSubstr("arith.addi"));
}

TEST_F(ShrinkTest, InputFeaturesOfAnArgumentAreSliced) {
  auto module = parse(kTraining);
  // The weights' rows meet the matmul's reduction: x's columns narrow, and x
  // is an argument, so it is sliced.
  absl::Status status = shrink(*module, "linalg.generic", 0, 0, {0, 2, 1, {}});
  ASSERT_TRUE(status.ok()) << status;
  std::string text = canonical(*module);
  EXPECT_THAT(text, HasSubstr("[0, 0] [2, 2] [1, 1] : tensor<2x4xf32> to "
                              "tensor<2x2xf32>"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("arith.muli")));
  // A list of rows cannot slice the argument.
  auto again = parse(kTraining);
  EXPECT_THAT(
      std::string(
          shrink(*again, "linalg.generic", 0, 0, {0, 0, 1, {0, 3}}).message()),
      HasSubstr("list of kept indices"));
}

TEST_F(ShrinkTest, ProposalsAlwaysVerify) {
  auto module = parse(kMlp);
  MutationOptions options;
  options.kinds = {EditKind::Shrink};
  std::mt19937_64 rng(5);
  int made = 0;
  for (int i = 0; i < 30; ++i) {
    absl::StatusOr<Edit> edit =
        proposeEdit(*module, EditKind::Shrink, options, rng);
    if (!edit.ok())
      continue;
    ++made;
    mlir::OwningOpRef<mlir::ModuleOp> copy(module->clone());
    ASSERT_TRUE(applyEdit(*copy, *edit).ok());
    EXPECT_TRUE(mlir::succeeded(mlir::verify(*copy)));
    EXPECT_GE(edit->keep.count(), 1);
    EXPECT_LT(edit->keep.count(), 4);
  }
  EXPECT_GT(made, 5);
}

} // namespace
} // namespace gevo
