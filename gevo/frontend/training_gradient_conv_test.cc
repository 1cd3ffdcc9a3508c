//===- training_gradient_conv_test.cc - Pad, convolution and pool rules ---===//
//
// The windowed ops' gradient rules against central finite differences in f64
// (strides, padding, rows no window reads, an imported average pool), and a
// max pool's tie rule (the first maximum takes the gradient, as in PyTorch).
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gevo/frontend/training.h"
#include "gevo/frontend/training_testing.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// mm [4, C*H*W] as NCHW, then `body` from %v, collapsed back from %y of
/// `outChw` elements per row.
std::string spatial(int64_t c, int64_t h, const std::string &body,
                    const std::string &yType, int64_t outChw) {
  std::string x = absl::StrCat("tensor<4x", c, "x", h, "x", h, "xf64>");
  std::string text = absl::StrCat(
      "    %v = tensor.expand_shape %mm [[0], [1, 2, 3]] output_shape [4, ", c,
      ", ", h, ", ", h, "] : tensor<4x", c * h * h, "xf64> into ", x, "\n",
      body, "    %out = tensor.collapse_shape %y [[0], [1, 2, 3]] : ", yType,
      " into tensor<4x", outChw, "xf64>\n");
  return forwardModule(c * h * h, text, "%out",
                       absl::StrCat("tensor<4x", outChw, "xf64>"));
}

std::string convBody(int64_t c, int64_t h, int64_t pad, int64_t stride,
                     int64_t out) {
  int64_t hp = h + 2 * pad;
  std::string in = absl::StrCat("tensor<4x", c, "x", hp, "x", hp, "xf64>");
  std::string y = absl::StrCat("tensor<4x3x", out, "x", out, "xf64>");
  std::string text;
  if (pad > 0)
    text =
        absl::StrCat("    %p = tensor.pad %v low[0, 0, ", pad, ", ", pad,
                     "] high[0, 0, ", pad, ", ", pad,
                     "] {\n    ^bb0(%i0: index, %i1: index, %i2: index, %i3: "
                     "index):\n      tensor.yield %zero : f64\n    } : "
                     "tensor<4x",
                     c, "x", h, "x", h, "xf64> to ", in, "\n");
  return absl::StrCat(
      text, "    %F = arith.constant dense<0.0> : tensor<3x", c,
      "x3x3xf64>\n    %ec = tensor.empty() : ", y,
      "\n    %zc = linalg.fill ins(%zero : f64) outs(%ec : ", y, ") -> ", y,
      "\n    %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : "
      "tensor<2xi64>, strides = dense<[",
      stride, ", ", stride, "]> : tensor<2xi64>} ins(", pad > 0 ? "%p" : "%v",
      ", %F : ", in, ", tensor<3x", c, "x3x3xf64>) outs(%zc : ", y, ") -> ", y,
      "\n    %cb = arith.constant dense<0.0> : tensor<3x1x1xf64>\n"
      "    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) "
      "-> "
      "(d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, "
      "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = "
      "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]} ins(%c, %cb "
      ": ",
      y, ", tensor<3x1x1xf64>) outs(%ec : ", y,
      ") {\n    ^bb0(%p0: f64, %q0: f64, %o0: f64):\n      %r0 = arith.addf "
      "%p0, %q0 : f64\n      linalg.yield %r0 : f64\n    } -> ",
      y, "\n");
}

TEST(TrainingGradient, ConvolutionStrideOne) {
  checkGradients(
      spatial(2, 5, convBody(2, 5, 0, 1, 3), "tensor<4x3x3x3xf64>", 27));
}

TEST(TrainingGradient, PaddedConvolutionStrideTwo) {
  checkGradients(
      spatial(2, 5, convBody(2, 5, 1, 2, 3), "tensor<4x3x3x3xf64>", 27));
}

TEST(TrainingGradient, ConvolutionStrideTwoLeavingARow) {
  // 8x8 padded input, 3x3 filter, stride 2: the last row is never read.
  checkGradients(
      spatial(2, 6, convBody(2, 6, 1, 2, 3), "tensor<4x3x3x3xf64>", 27));
}

std::string poolBody(const std::string &kind, int64_t c, int64_t h, int64_t out,
                     const std::string &start, int64_t window = 2,
                     int64_t stride = 2) {
  std::string in = absl::StrCat("tensor<4x", c, "x", h, "x", h, "xf64>");
  std::string y = absl::StrCat("tensor<4x", c, "x", out, "x", out, "xf64>");
  std::string win = absl::StrCat("tensor<", window, "x", window, "xf64>");
  return absl::StrCat(
      "    %start = arith.constant ", start,
      " : f64\n    %ep = tensor.empty() : ", y,
      "\n    %zp = linalg.fill ins(%start : f64) outs(%ep : ", y, ") -> ", y,
      "\n    %win = tensor.empty() : ", win,
      "\n    %pool = linalg.pooling_nchw_", kind,
      " {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[", stride,
      ", ", stride, "]> : tensor<2xi64>} ins(%v, %win : ", in, ", ", win,
      ") outs(%zp : ", y, ") -> ", y, "\n");
}

TEST(TrainingGradient, MaxPool) {
  std::string body = poolBody("max", 2, 4, 2, "0xFFF0000000000000") +
                     "    %y = tensor.collapse_shape %pool [[0], [1], [2], "
                     "[3]] : tensor<4x2x2x2xf64> into tensor<4x2x2x2xf64>\n";
  checkGradients(spatial(2, 4, body, "tensor<4x2x2x2xf64>", 8));
}

TEST(TrainingGradient, MaxPoolLeavingAColumn) {
  // 5x5 pooled 2x2: the last row and column are in no window.
  std::string body = poolBody("max", 2, 5, 2, "0xFFF0000000000000") +
                     "    %y = tensor.collapse_shape %pool [[0], [1], [2], "
                     "[3]] : tensor<4x2x2x2xf64> into tensor<4x2x2x2xf64>\n";
  checkGradients(spatial(2, 5, body, "tensor<4x2x2x2xf64>", 8));
}

TEST(TrainingGradient, OverlappingMaxPool) {
  // 3x3 windows at stride 2 over 7x7 (as ResNet's stem pool).
  std::string body =
      poolBody("max", 2, 7, 3, "0xFFF0000000000000", 3, 2) +
      "    %y = tensor.collapse_shape %pool [[0], [1], [2], [3]] : "
      "tensor<4x2x3x3xf64> into tensor<4x2x3x3xf64>\n";
  checkGradients(spatial(2, 7, body, "tensor<4x2x3x3xf64>", 18));
}

TEST(TrainingGradient, OverlappingSumPool) {
  std::string body = poolBody("sum", 2, 4, 2, "0.0", 3, 1) +
                     "    %y = tensor.collapse_shape %pool [[0], [1], [2], "
                     "[3]] : tensor<4x2x2x2xf64> into tensor<4x2x2x2xf64>\n";
  checkGradients(spatial(2, 4, body, "tensor<4x2x2x2xf64>", 8));
}

TEST(TrainingGradient, GlobalAveragePoolAsImported) {
  // A sum over height and width into zeros (accumulator first, as the
  // importer writes it), divided by their count, reshaped to [4, 2, 1, 1].
  std::string body = R"(    %ez = tensor.empty() : tensor<4x2xf64>
    %zz = linalg.fill ins(%zero : f64) outs(%ez : tensor<4x2xf64>) -> tensor<4x2xf64>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%v : tensor<4x2x2x3xf64>) outs(%zz : tensor<4x2xf64>) {
    ^bb0(%p0: f64, %acc0: f64):
      %r0 = arith.addf %acc0, %p0 : f64
      linalg.yield %r0 : f64
    } -> tensor<4x2xf64>
    %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x2xf64>) outs(%ez : tensor<4x2xf64>) {
    ^bb0(%p1: f64, %o1: f64):
      %c6 = arith.constant 6.0 : f64
      %r1 = arith.divf %p1, %c6 : f64
      linalg.yield %r1 : f64
    } -> tensor<4x2xf64>
    %y = tensor.expand_shape %m [[0], [1, 2, 3]] output_shape [4, 2, 1, 1] : tensor<4x2xf64> into tensor<4x2x1x1xf64>
)";
  checkGradients(spatial(2, 2, absl::StrReplaceAll(body, {{"2x2x3", "2x2x2"}}),
                         "tensor<4x2x1x1xf64>", 2));
}

TEST(TrainingGradient, AveragePoolAsImported) {
  // A sum pool divided by each window's count (broadcast over batch and
  // channels), as the importer writes AveragePool.
  std::string y = "tensor<4x2x2x2xf64>";
  std::string body =
      poolBody("sum", 2, 4, 2, "0.0") +
      "    %counts = arith.constant dense<[[4.0, 4.0], [4.0, 2.0]]> : "
      "tensor<2x2xf64>\n    %y = linalg.generic {indexing_maps = "
      "[affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, "
      "d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, "
      "d3)>], iterator_types = [\"parallel\", \"parallel\", \"parallel\", "
      "\"parallel\"]} ins(%pool, %counts : " +
      y + ", tensor<2x2xf64>) outs(%ep : " + y +
      ") {\n    ^bb0(%p0: f64, %q0: f64, %o0: f64):\n      %r0 = arith.divf "
      "%p0, %q0 : f64\n      linalg.yield %r0 : f64\n    } -> " +
      y + "\n";
  checkGradients(spatial(2, 4, body, y, 8));
}

TEST(TrainingGradient, MaxPoolSendsATiedWindowsGradientToItsFirstMaximum) {
  // x @ W viewed as one 2x2 window whose four values are equal: as in
  // PyTorch, only the first (row-major) receives the gradient.
  const char *forward = R"(module {
  func.func @main(%x: tensor<1x4xf64>) -> tensor<1x1xf64> {
    %zero = arith.constant 0.0 : f64
    %ninf = arith.constant 0xFFF0000000000000 : f64
    %W = arith.constant dense<0.0> : tensor<4x4xf64>
    %e = tensor.empty() : tensor<1x4xf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<1x4xf64>) -> tensor<1x4xf64>
    %mm = linalg.matmul ins(%x, %W : tensor<1x4xf64>, tensor<4x4xf64>) outs(%z : tensor<1x4xf64>) -> tensor<1x4xf64>
    %v = tensor.expand_shape %mm [[0], [1, 2, 3]] output_shape [1, 1, 2, 2] : tensor<1x4xf64> into tensor<1x1x2x2xf64>
    %ep = tensor.empty() : tensor<1x1x1x1xf64>
    %zp = linalg.fill ins(%ninf : f64) outs(%ep : tensor<1x1x1x1xf64>) -> tensor<1x1x1x1xf64>
    %win = tensor.empty() : tensor<2x2xf64>
    %pool = linalg.pooling_nchw_max {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>} ins(%v, %win : tensor<1x1x2x2xf64>, tensor<2x2xf64>) outs(%zp : tensor<1x1x1x1xf64>) -> tensor<1x1x1x1xf64>
    %y = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x1x1x1xf64> into tensor<1x1xf64>
    return %y : tensor<1x1xf64>
  }
}
)";
  absl::StatusOr<GradientCheckModules> modules = generateGradientCheck(forward);
  ASSERT_TRUE(modules.ok()) << modules.status();
  auto gradient = CompiledModule::compile(modules->gradient, "gradient");
  ASSERT_TRUE(gradient.ok()) << gradient.status();
  HostTensor x(ElementType::F64, {1, 4}), w(ElementType::F64, {4, 4}),
      dy(ElementType::F64, {1, 1});
  for (int i = 0; i < 4; ++i)
    x.as<double>()[i] = i == 0 ? 1.0 : 0.0;
  for (int i = 0; i < 16; ++i)
    w.as<double>()[i] = i < 4 ? 3.0 : 0.5 * i;
  dy.as<double>()[0] = 2.0;
  absl::StatusOr<std::vector<HostTensor>> grads = (*gradient)->run({x, w, dy});
  ASSERT_TRUE(grads.ok()) << grads.status();
  std::vector<double> got((*grads)[0].as<double>(),
                          (*grads)[0].as<double>() + 16);
  std::vector<double> want(16, 0.0);
  want[0] = 2.0; // dW[0, 0] = x[0] * dy, to the window's first element only
  EXPECT_EQ(got, want);
}

} // namespace
} // namespace gevo
