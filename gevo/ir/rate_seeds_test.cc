//===- rate_seeds_test.cc - Learning-rate sweeps as starting points
//--------===//
//
// learningRateSeeds() finds a gradient descent's step size by the shape of
// its updates (`w - lr * g`, in linalg bodies inside a training loop) and
// gives one edit doubling it and one halving it; a constant with any other
// use, or a factor whose product is not subtracted, is not a step size.
//
//===----------------------------------------------------------------------===//

#include <string>

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// Two parameters trained by SGD in an scf.for: %lr scales both updates'
/// steps; %decay multiplies a step that is added, %mixed is a step size
/// that also feeds the returned value, %scale a factor whose product is the
/// left side of a subtraction.
constexpr const char *kSgd = R"(
#id = affine_map<(d0) -> (d0)>
func.func @main(%g: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 3 : index
  %lr = arith.constant 0.1 : f32
  %decay = arith.constant 0.9 : f32
  %mixed = arith.constant 0.3 : f32
  %scale = arith.constant 2.0 : f32
  %w0 = arith.constant dense<1.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r:2 = scf.for %i = %c0 to %steps step %c1
      iter_args(%w = %w0, %v = %w0) -> (tensor<4xf32>, tensor<4xf32>) {
    %nw = linalg.generic {indexing_maps = [#id, #id, #id],
                          iterator_types = ["parallel"]}
        ins(%w, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %step = arith.mulf %lr, %b : f32
      %n = arith.subf %a, %step : f32
      linalg.yield %n : f32
    } -> tensor<4xf32>
    %nv = linalg.generic {indexing_maps = [#id, #id, #id],
                          iterator_types = ["parallel"]}
        ins(%v, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %step = arith.mulf %b, %lr : f32
      %kept = arith.mulf %a, %decay : f32
      %n = arith.subf %kept, %step : f32
      %m = arith.mulf %mixed, %b : f32
      %n2 = arith.subf %n, %m : f32
      %big = arith.mulf %scale, %a : f32
      %n3 = arith.subf %big, %n2 : f32
      linalg.yield %n3 : f32
    } -> tensor<4xf32>
    scf.yield %nw, %nv : tensor<4xf32>, tensor<4xf32>
  }
  %out = arith.addf %mixed, %mixed : f32
  return %r#0, %r#1, %out : tensor<4xf32>, tensor<4xf32>, f32
}
)";

class RateSeedsTest : public ::testing::Test {
protected:
  void SetUp() override {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> parsed =
        parseModule(*context, kSgd, "sgd.mlir");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    module = std::move(*parsed);
  }

  std::unique_ptr<mlir::MLIRContext> context = createContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(RateSeedsTest, DoubleAndHalveTheStepSizeOnly) {
  std::vector<Edit> seeds = learningRateSeeds(*module, MutationOptions());
  ASSERT_EQ(seeds.size(), 2u);
  EXPECT_EQ(seeds[0].literal, "0.2");
  EXPECT_EQ(seeds[1].literal, "0.05");
  for (const Edit &seed : seeds) {
    EXPECT_EQ(seed.kind, EditKind::Constant);
    // %lr, the fourth constant of @main.
    EXPECT_EQ(seed.target.function, "main");
    EXPECT_EQ(seed.target.opName, "arith.constant");
    EXPECT_EQ(seed.target.ordinal, 3);
    mlir::OwningOpRef<mlir::ModuleOp> copy(module->clone());
    ASSERT_TRUE(applyEdit(*copy, seed).ok());
    EXPECT_TRUE(mlir::succeeded(mlir::verify(*copy)));
  }
}

TEST_F(RateSeedsTest, NoneWithoutTheConstantOperatorOrOutsideTheFilters) {
  MutationOptions noConstant;
  noConstant.kinds = {EditKind::Delete, EditKind::Shrink};
  EXPECT_TRUE(learningRateSeeds(*module, noConstant).empty());
  MutationOptions otherFunction;
  otherFunction.functions = {"predict"};
  EXPECT_TRUE(learningRateSeeds(*module, otherFunction).empty());
}

} // namespace
} // namespace gevo
