//===- shrink_conv_test.cc - Shrink edits on convolution channels ---------===//
//
// Narrowing a convolution's output channels must give exactly the network
// written by hand with fewer channels (filter, bias, pooling and the dense
// layer's weights narrowed together); both are canonicalised and compared as
// text. The web says when the dimension is channels.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/find_op_testing.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/shrink.h"
#include "gevo/ir/shrink_testing.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

// 2 images 4x4x1 -> conv 2x2, 3 channels (+bias, ReLU) -> 2x2 max-pool ->
// dense over (row, column, channel) to 2 outputs.
constexpr char kCnn[] = R"(
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch4 = affine_map<(n, h, w, c) -> (c)>
#in = affine_map<(n, o, h, w, c) -> (n, h, w, c)>
#wt = affine_map<(n, o, h, w, c) -> (h, w, c, o)>
#out = affine_map<(n, o, h, w, c) -> (n, o)>
func.func @main(%x: tensor<2x4x4x1xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -1.0e30 : f32
  %K = arith.constant dense<[[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]],
      [[[7.0, 8.0, 9.0]], [[10.0, 11.0, 12.0]]]]> : tensor<2x2x1x3xf32>
  %bK = arith.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %D = arith.constant dense<[[[[1.0, -1.0], [2.0, -2.0], [3.0, -3.0]]]]> : tensor<1x1x3x2xf32>
  %ce = tensor.empty() : tensor<2x3x3x3xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x3x3x3xf32>) -> tensor<2x3x3x3xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %K : tensor<2x4x4x1xf32>, tensor<2x2x1x3xf32>) outs(%cz : tensor<2x3x3x3xf32>) -> tensor<2x3x3x3xf32>
  %c = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bK : tensor<2x3x3x3xf32>, tensor<3xf32>) outs(%ce : tensor<2x3x3x3xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x3x3x3xf32>
  %pe = tensor.empty() : tensor<2x1x1x3xf32>
  %pl = linalg.fill ins(%low : f32) outs(%pe : tensor<2x1x1x3xf32>) -> tensor<2x1x1x3xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%c, %win : tensor<2x3x3x3xf32>, tensor<2x2xf32>) outs(%pl : tensor<2x1x1x3xf32>) -> tensor<2x1x1x3xf32>
  %he = tensor.empty() : tensor<2x2xf32>
  %hz = linalg.fill ins(%zero : f32) outs(%he : tensor<2x2xf32>) -> tensor<2x2xf32>
  %h = linalg.generic {indexing_maps = [#in, #wt, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%pool, %D : tensor<2x1x1x3xf32>, tensor<1x1x3x2xf32>) outs(%hz : tensor<2x2xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %h : tensor<2x2xf32>
}
)";

// The same network with channels 0 and 2 kept, written by hand.
constexpr char kCnnChannels02[] = R"(
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch4 = affine_map<(n, h, w, c) -> (c)>
#in = affine_map<(n, o, h, w, c) -> (n, h, w, c)>
#wt = affine_map<(n, o, h, w, c) -> (h, w, c, o)>
#out = affine_map<(n, o, h, w, c) -> (n, o)>
func.func @main(%x: tensor<2x4x4x1xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -1.0e30 : f32
  %K = arith.constant dense<[[[[1.0, 3.0]], [[4.0, 6.0]]],
      [[[7.0, 9.0]], [[10.0, 12.0]]]]> : tensor<2x2x1x2xf32>
  %bK = arith.constant dense<[0.1, 0.3]> : tensor<2xf32>
  %D = arith.constant dense<[[[[1.0, -1.0], [3.0, -3.0]]]]> : tensor<1x1x2x2xf32>
  %ce = tensor.empty() : tensor<2x3x3x2xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x3x3x2xf32>) -> tensor<2x3x3x2xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %K : tensor<2x4x4x1xf32>, tensor<2x2x1x2xf32>) outs(%cz : tensor<2x3x3x2xf32>) -> tensor<2x3x3x2xf32>
  %c = linalg.generic {indexing_maps = [#id4, #ch4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bK : tensor<2x3x3x2xf32>, tensor<2xf32>) outs(%ce : tensor<2x3x3x2xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x3x3x2xf32>
  %pe = tensor.empty() : tensor<2x1x1x2xf32>
  %pl = linalg.fill ins(%low : f32) outs(%pe : tensor<2x1x1x2xf32>) -> tensor<2x1x1x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%c, %win : tensor<2x3x3x2xf32>, tensor<2x2xf32>) outs(%pl : tensor<2x1x1x2xf32>) -> tensor<2x1x1x2xf32>
  %he = tensor.empty() : tensor<2x2xf32>
  %hz = linalg.fill ins(%zero : f32) outs(%he : tensor<2x2xf32>) -> tensor<2x2xf32>
  %h = linalg.generic {indexing_maps = [#in, #wt, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%pool, %D : tensor<2x1x1x2xf32>, tensor<1x1x2x2xf32>) outs(%hz : tensor<2x2xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %h : tensor<2x2xf32>
}
)";

class ShrinkConvTest : public ShrinkTestBase {
protected:
  /// The first op named `name` in @main, and its address.
  std::pair<mlir::Operation *, OpRef> find(mlir::ModuleOp module,
                                           const std::string &name) {
    auto found = findOp(module, name, 0);
    if (!found)
      ADD_FAILURE() << "no " << name;
    return found ? *found : std::make_pair(nullptr, OpRef());
  }

  absl::Status shrink(mlir::ModuleOp module, const std::string &opName, int dim,
                      Selection keep) {
    return shrinkAt(module, find(module, opName).second, dim, std::move(keep));
  }
};

TEST_F(ShrinkConvTest, ConvOutputChannelsEqualTheNetworkWrittenByHand) {
  auto module = parse(kCnn);
  ASSERT_TRUE(
      shrink(*module, "linalg.conv_2d_nhwc_hwcf", 3, {0, 3, 2, {}}).ok());
  ASSERT_TRUE(mlir::succeeded(mlir::verify(*module)));
  auto expected = parse(kCnnChannels02);
  EXPECT_EQ(canonical(*module), canonical(*expected));
}

TEST_F(ShrinkConvTest, PoolingChannelsGiveTheSameNetworkByIndexList) {
  // Seeded after the pooling, as a kept-index list: the web is the same.
  auto module = parse(kCnn);
  ASSERT_TRUE(
      shrink(*module, "linalg.pooling_nhwc_max", 3, {0, 0, 1, {0, 2}}).ok());
  auto expected = parse(kCnnChannels02);
  EXPECT_EQ(canonical(*module), canonical(*expected));
}

TEST_F(ShrinkConvTest, TheWebSaysTheDimensionIsChannels) {
  auto module = parse(kCnn);
  mlir::Operation *conv = find(*module, "linalg.conv_2d_nhwc_hwcf").first;
  ASSERT_NE(conv, nullptr);
  absl::StatusOr<ShrinkWeb> channels = analyzeShrink(conv->getResult(0), 3);
  ASSERT_TRUE(channels.ok()) << channels.status();
  EXPECT_TRUE(channels->channels);
  EXPECT_EQ(channels->size, 3);
  EXPECT_EQ(channels->constants, 3); // filter, bias, dense weights
}

TEST_F(ShrinkConvTest, TheImageRowsOfAConvolutionCannotNarrow) {
  // A convolution reads its input rows through oh + kh: not a plain loop.
  auto module = parse(kCnn);
  absl::Status status =
      shrink(*module, "linalg.conv_2d_nhwc_hwcf", 1, {0, 2, 1, {}});
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("by an expression"),
            std::string::npos)
      << status;
}

} // namespace
} // namespace gevo
