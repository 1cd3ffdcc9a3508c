//===- shrink_flatten_test.cc - Shrinks through tensor.pad and a flatten --===//
//
// An NCHW network as the ONNX importer writes it: a convolution's channels
// pass a tensor.pad (unpadded along them) into the next convolution, whose
// channels are flattened with the batch (collapse_shape, expand_shape) into a
// dense layer. Narrowing either must give the network written by hand.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/find_op_testing.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/shrink.h"
#include "gevo/ir/shrink_testing.h"
#include "gevo/ir/shrink_web.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

// 2 images 1x1x1 -> 1x1 conv to 3 channels -> pad one row on top -> 1x1 conv
// 3 -> 3 channels -> flatten [2, 3*2*1] -> dense to 2 outputs.
constexpr char kNet[] = R"(
func.func @main(%x: tensor<2x1x1x1xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %K1 = arith.constant dense<[[[[1.0]]], [[[2.0]]], [[[3.0]]]]> : tensor<3x1x1x1xf32>
  %K2 = arith.constant dense<[[[[1.0]], [[0.0]], [[0.0]]], [[[0.0]], [[1.0]], [[0.0]]],
      [[[0.0]], [[0.0]], [[1.0]]]]> : tensor<3x3x1x1xf32>
  %D = arith.constant dense<[[1.0, -1.0], [2.0, -2.0], [3.0, -3.0], [4.0, -4.0],
      [5.0, -5.0], [6.0, -6.0]]> : tensor<6x2xf32>
  %e1 = tensor.empty() : tensor<2x3x1x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %K1 : tensor<2x1x1x1xf32>, tensor<3x1x1x1xf32>) outs(%f1 : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
  %p = tensor.pad %c1 low[0, 0, 1, 0] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x3x1x1xf32> to tensor<2x3x2x1xf32>
  %e2 = tensor.empty() : tensor<2x3x2x1xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x3x2x1xf32>) -> tensor<2x3x2x1xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %K2 : tensor<2x3x2x1xf32>, tensor<3x3x1x1xf32>) outs(%f2 : tensor<2x3x2x1xf32>) -> tensor<2x3x2x1xf32>
  %flat = tensor.collapse_shape %c2 [[0, 1, 2, 3]] : tensor<2x3x2x1xf32> into tensor<12xf32>
  %rows = tensor.expand_shape %flat [[0, 1]] output_shape [2, 6] : tensor<12xf32> into tensor<2x6xf32>
  %e3 = tensor.empty() : tensor<2x2xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = linalg.matmul ins(%rows, %D : tensor<2x6xf32>, tensor<6x2xf32>) outs(%f3 : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
)";

// The second convolution with output channels 0 and 2 only: the dense
// layer keeps the rows those channels flatten to (0, 1, 4, 5).
constexpr char kNetConv2Channels02[] = R"(
func.func @main(%x: tensor<2x1x1x1xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %K1 = arith.constant dense<[[[[1.0]]], [[[2.0]]], [[[3.0]]]]> : tensor<3x1x1x1xf32>
  %K2 = arith.constant dense<[[[[1.0]], [[0.0]], [[0.0]]], [[[0.0]], [[0.0]], [[1.0]]]]> : tensor<2x3x1x1xf32>
  %D = arith.constant dense<[[1.0, -1.0], [2.0, -2.0], [5.0, -5.0], [6.0, -6.0]]> : tensor<4x2xf32>
  %e1 = tensor.empty() : tensor<2x3x1x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %K1 : tensor<2x1x1x1xf32>, tensor<3x1x1x1xf32>) outs(%f1 : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
  %p = tensor.pad %c1 low[0, 0, 1, 0] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x3x1x1xf32> to tensor<2x3x2x1xf32>
  %e2 = tensor.empty() : tensor<2x2x2x1xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x2x2x1xf32>) -> tensor<2x2x2x1xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %K2 : tensor<2x3x2x1xf32>, tensor<2x3x1x1xf32>) outs(%f2 : tensor<2x2x2x1xf32>) -> tensor<2x2x2x1xf32>
  %flat = tensor.collapse_shape %c2 [[0, 1, 2, 3]] : tensor<2x2x2x1xf32> into tensor<8xf32>
  %rows = tensor.expand_shape %flat [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %e3 = tensor.empty() : tensor<2x2xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = linalg.matmul ins(%rows, %D : tensor<2x4xf32>, tensor<4x2xf32>) outs(%f3 : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
)";

// The first convolution with channels 0 and 2 only: the pad carries two
// channels and the second convolution reads input channels 0 and 2.
constexpr char kNetConv1Channels02[] = R"(
func.func @main(%x: tensor<2x1x1x1xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %K1 = arith.constant dense<[[[[1.0]]], [[[3.0]]]]> : tensor<2x1x1x1xf32>
  %K2 = arith.constant dense<[[[[1.0]], [[0.0]]], [[[0.0]], [[0.0]]],
      [[[0.0]], [[1.0]]]]> : tensor<3x2x1x1xf32>
  %D = arith.constant dense<[[1.0, -1.0], [2.0, -2.0], [3.0, -3.0], [4.0, -4.0],
      [5.0, -5.0], [6.0, -6.0]]> : tensor<6x2xf32>
  %e1 = tensor.empty() : tensor<2x2x1x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %K1 : tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>) outs(%f1 : tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
  %p = tensor.pad %c1 low[0, 0, 1, 0] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x2x1x1xf32> to tensor<2x2x2x1xf32>
  %e2 = tensor.empty() : tensor<2x3x2x1xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x3x2x1xf32>) -> tensor<2x3x2x1xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %K2 : tensor<2x2x2x1xf32>, tensor<3x2x1x1xf32>) outs(%f2 : tensor<2x3x2x1xf32>) -> tensor<2x3x2x1xf32>
  %flat = tensor.collapse_shape %c2 [[0, 1, 2, 3]] : tensor<2x3x2x1xf32> into tensor<12xf32>
  %rows = tensor.expand_shape %flat [[0, 1]] output_shape [2, 6] : tensor<12xf32> into tensor<2x6xf32>
  %e3 = tensor.empty() : tensor<2x2xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = linalg.matmul ins(%rows, %D : tensor<2x6xf32>, tensor<6x2xf32>) outs(%f3 : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
)";

class ShrinkFlattenTest : public ShrinkTestBase {
protected:
  /// Shrinks dimension `dim` of the `nth` op named `name`.
  absl::Status shrink(mlir::ModuleOp module, const std::string &name, int nth,
                      int dim, Selection keep) {
    auto found = findOp(module, name, nth);
    if (!found)
      return absl::NotFoundError(name);
    return shrinkAt(module, found->second, dim, std::move(keep));
  }
};

TEST_F(ShrinkFlattenTest, ChannelsBeforeAFlattenKeepTheirDenseRows) {
  auto module = parse(kNet);
  absl::Status status =
      shrink(*module, "linalg.conv_2d_nchw_fchw", 1, 1, {0, 0, 1, {0, 2}});
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_TRUE(mlir::succeeded(mlir::verify(*module)));
  EXPECT_EQ(canonical(*module), canonical(*parse(kNetConv2Channels02)));
}

TEST_F(ShrinkFlattenTest, ARangeOfChannelsBeforeAFlattenIsARangeOfRows) {
  // Channels [1:2] flatten to rows [2:4] of each image's 6.
  auto module = parse(kNet);
  ASSERT_TRUE(
      shrink(*module, "linalg.conv_2d_nchw_fchw", 1, 1, {1, 2, 1, {}}).ok());
  ASSERT_TRUE(mlir::succeeded(mlir::verify(*module)));
  auto matmul = findOp(*module, "linalg.matmul", 0);
  ASSERT_TRUE(matmul);
  std::string text;
  llvm::raw_string_ostream os(text);
  matmul->first->getOperand(1).getDefiningOp()->print(os);
  EXPECT_NE(text.find("[3.000000e+00, -3.000000e+00], [4.000000e+00, "
                      "-4.000000e+00]]> : tensor<2x2xf32>"),
            std::string::npos)
      << text;
}

TEST_F(ShrinkFlattenTest, ChannelsThroughAnUnpaddedDimensionOfAPad) {
  auto module = parse(kNet);
  absl::Status status =
      shrink(*module, "linalg.conv_2d_nchw_fchw", 0, 1, {0, 0, 1, {0, 2}});
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_TRUE(mlir::succeeded(mlir::verify(*module)));
  EXPECT_EQ(canonical(*module), canonical(*parse(kNetConv1Channels02)));
}

TEST_F(ShrinkFlattenTest, APaddedDimensionCannotNarrow) {
  auto module = parse(kNet);
  absl::Status status = shrink(*module, "tensor.pad", 0, 2, {0, 1, 1, {}});
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("pads the dimension"),
            std::string::npos)
      << status;
}

TEST_F(ShrinkFlattenTest, TheWeightOfAChannelAddsUpItsFlattenedRows) {
  auto module = parse(kNet);
  auto conv = findOp(*module, "linalg.conv_2d_nchw_fchw", 1);
  ASSERT_TRUE(conv);
  absl::StatusOr<ShrinkWeb> web = analyzeShrink(conv->first->getResult(0), 1);
  ASSERT_TRUE(web.ok()) << web.status();
  EXPECT_TRUE(web->channels);
  EXPECT_TRUE(web->allowsIndexList);
  ASSERT_EQ(web->weight.size(), 3u);
  // K2's rows hold a third each; D's squared norm is 2 * 91 = 182, channel c
  // holding rows 2c and 2c+1.
  EXPECT_NEAR(web->weight[0], 1.0 / 3 + 10.0 / 182, 1e-9);
  EXPECT_NEAR(web->weight[1], 1.0 / 3 + 50.0 / 182, 1e-9);
  EXPECT_NEAR(web->weight[2], 1.0 / 3 + 122.0 / 182, 1e-9);
}

TEST(SpreadTest, CollapsingAndExpandingFollowTheIndices) {
  // [N=2, C=3, H=2, W=1] flattened whole: channel c is 2 runs of 2.
  Spread flat = spreadCollapsed({2, 3, 2, 1}, {0, 1, 2, 3}, 1, Spread{});
  EXPECT_EQ(flat.outer, 2);
  EXPECT_EQ(flat.inner, 2);
  auto rows = spreadExpanded({2, 6}, {0, 1}, 3, flat);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->first, 1);
  EXPECT_EQ(rows->second.outer, 1);
  EXPECT_EQ(rows->second.inner, 2);
  // [2, 2, 3] would cut each channel's run of 2 rows across dimensions.
  EXPECT_FALSE(spreadExpanded({2, 2, 3}, {0, 1, 2}, 3, flat).ok());
}

TEST(SpreadTest, ASelectionCoversEveryPositionOfEachKeptIndex) {
  Selection range = spreadSelection({1, 3, 1, {}}, 4, Spread{1, 3});
  EXPECT_TRUE(range.indices.empty());
  EXPECT_EQ(range.start, 3);
  EXPECT_EQ(range.stop, 9);
  Selection list = spreadSelection({0, 0, 1, {0, 2}}, 3, Spread{2, 2});
  EXPECT_EQ(list.indices, (std::vector<int64_t>{0, 1, 4, 5, 6, 7, 10, 11}));
}

} // namespace
} // namespace gevo
