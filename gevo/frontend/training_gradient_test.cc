//===- training_gradient_test.cc - Each gradient rule against finite differences
//
// Tiny f64 forward modules, one per rule (and the broadcasts, reshapes and
// shared values between them): the generated reverse pass's gradient of
// L = sum(y * dy) for every parameter element must match central finite
// differences of the forward function, both compiled through the CPU Target.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gevo/frontend/training.h"
#include "gevo/frontend/training_testing.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

// x is 4x3; every case writes its ops after "%mm = x @ W" ([4, N]).
std::string forwardModule(int64_t n, const std::string &body,
                          const std::string &out, const std::string &outType) {
  return absl::StrReplaceAll(
      R"(#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%x: tensor<4x3xf64>) -> $T {
    %zero = arith.constant 0.0 : f64
    %one = arith.constant 1.0 : f64
    %W = arith.constant dense<0.0> : tensor<3x$Nxf64>
    %e = tensor.empty() : tensor<4x$Nxf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<4x$Nxf64>) -> tensor<4x$Nxf64>
    %mm = linalg.matmul ins(%x, %W : tensor<4x3xf64>, tensor<3x$Nxf64>) outs(%z : tensor<4x$Nxf64>) -> tensor<4x$Nxf64>
$BODY    return $OUT : $T
  }
}
)",
      {{"$N", absl::StrCat(n)},
       {"$BODY", body},
       {"$OUT", out},
       {"$T", outType}});
}

/// %name = <a> op <b> with maps (#id, map) over 4xN.
std::string binary(const std::string &name, const std::string &op,
                   const std::string &a, const std::string &b,
                   const std::string &bMap, const std::string &bType,
                   int64_t n = 5) {
  std::string t = absl::StrCat("tensor<4x", n, "xf64>");
  return absl::StrCat(
      "    ", name, " = linalg.generic {indexing_maps = [#id, ", bMap,
      ", #id], iterator_types = [\"parallel\", \"parallel\"]} ins(", a, ", ", b,
      " : ", t, ", ", bType, ") outs(%e : ", t,
      ") {\n    ^bb0(%p: f64, %q: f64, %o: f64):\n      %r = ", op,
      " %p, %q : f64\n      linalg.yield %r : f64\n    } -> ", t, "\n");
}

/// %name = f(a) elementwise over 4x5, `ops` computing %r from %p.
std::string unary(const std::string &name, const std::string &a,
                  const std::string &ops) {
  return absl::StrCat(
      "    ", name,
      " = linalg.generic {indexing_maps = [#id, #id], iterator_types = "
      "[\"parallel\", \"parallel\"]} ins(",
      a,
      " : tensor<4x5xf64>) outs(%e : tensor<4x5xf64>) {\n    ^bb0(%p: f64, "
      "%o: f64):\n",
      ops, "      linalg.yield %r : f64\n    } -> tensor<4x5xf64>\n");
}

std::string biasConstant(const std::string &name, const std::string &type) {
  return absl::StrCat("    ", name, " = arith.constant dense<0.0> : ", type,
                      "\n");
}

std::string withBias(const std::string &activation) {
  return biasConstant("%b", "tensor<5xf64>") +
         binary("%h", "arith.addf", "%mm", "%b", "#row", "tensor<5xf64>") +
         activation;
}

HostTensor randomTensor(const std::vector<int64_t> &shape, std::mt19937 &rng) {
  HostTensor t(ElementType::F64, shape);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.as<double>()[i] = uniform(rng);
  return t;
}

double lossOf(CompiledModule &forward, const std::vector<HostTensor> &inputs,
              const HostTensor &dy) {
  absl::StatusOr<std::vector<HostTensor>> y = forward.run(inputs);
  EXPECT_TRUE(y.ok()) << y.status();
  double loss = 0;
  for (int64_t i = 0; y.ok() && i < dy.numElements(); ++i)
    loss += (*y)[0].as<double>()[i] * dy.as<double>()[i];
  return loss;
}

void checkGradients(const std::string &forwardText) {
  absl::StatusOr<GradientCheckModules> modules =
      generateGradientCheck(forwardText);
  ASSERT_TRUE(modules.ok()) << modules.status();
  auto forward = CompiledModule::compile(modules->forward, "forward");
  ASSERT_TRUE(forward.ok()) << forward.status() << "\n" << modules->forward;
  auto gradient = CompiledModule::compile(modules->gradient, "gradient");
  ASSERT_TRUE(gradient.ok()) << gradient.status() << "\n" << modules->gradient;
  std::mt19937 rng(35);
  std::vector<HostTensor> inputs = {randomTensor(modules->inputShape, rng)};
  for (const std::vector<int64_t> &shape : modules->paramShapes)
    inputs.push_back(randomTensor(shape, rng));
  HostTensor dy = randomTensor(modules->outputShape, rng);
  std::vector<HostTensor> withDy = inputs;
  withDy.push_back(dy);
  absl::StatusOr<std::vector<HostTensor>> grads = (*gradient)->run(withDy);
  ASSERT_TRUE(grads.ok()) << grads.status();
  ASSERT_EQ(grads->size(), modules->paramShapes.size());
  const double eps = 1e-6;
  for (size_t k = 0; k < grads->size(); ++k) {
    double largest = 0;
    for (int64_t i = 0; i < (*grads)[k].numElements(); ++i) {
      double &p = inputs[k + 1].as<double>()[i];
      double saved = p;
      p = saved + eps;
      double up = lossOf(**forward, inputs, dy);
      p = saved - eps;
      double down = lossOf(**forward, inputs, dy);
      p = saved;
      double numeric = (up - down) / (2 * eps);
      double analytic = (*grads)[k].as<double>()[i];
      largest = std::max(largest, std::fabs(analytic));
      EXPECT_NEAR(analytic, numeric, 1e-7 + 1e-6 * std::fabs(numeric))
          << modules->paramNames[k] << "[" << i << "]\n"
          << modules->gradient;
    }
    EXPECT_GT(largest, 1e-3) << modules->paramNames[k] << " is all zeros";
  }
}

const char *kT5 = "tensor<4x5xf64>";

TEST(TrainingGradient, MatmulAndBiasAdd) {
  checkGradients(forwardModule(5, withBias(""), "%h", kT5));
}

TEST(TrainingGradient, Relu) {
  checkGradients(forwardModule(
      5,
      withBias(
          unary("%y", "%h", "      %r = arith.maximumf %p, %zero : f64\n")),
      "%y", kT5));
}

TEST(TrainingGradient, LeakyRelu) {
  checkGradients(forwardModule(
      5,
      withBias(unary("%y", "%h",
                     "      %c = arith.cmpf ogt, %p, %zero : f64\n"
                     "      %a = arith.constant 0.1 : f64\n"
                     "      %m = arith.mulf %p, %a : f64\n"
                     "      %r = arith.select %c, %p, %m : f64\n")),
      "%y", kT5));
}

TEST(TrainingGradient, Sigmoid) {
  checkGradients(
      forwardModule(5,
                    withBias(unary("%y", "%h",
                                   "      %n = arith.negf %p : f64\n"
                                   "      %x1 = math.exp %n : f64\n"
                                   "      %d = arith.addf %one, %x1 : f64\n"
                                   "      %r = arith.divf %one, %d : f64\n")),
                    "%y", kT5));
}

TEST(TrainingGradient, Tanh) {
  checkGradients(forwardModule(
      5, withBias(unary("%y", "%h", "      %r = math.tanh %p : f64\n")), "%y",
      kT5));
}

TEST(TrainingGradient, SubOfBiasAndMulOfSharedValue) {
  // y = mm * mm - b: the product's two operands are one value.
  std::string body =
      binary("%sq", "arith.mulf", "%mm", "%mm", "#id", kT5) +
      biasConstant("%b", "tensor<1x5xf64>") +
      binary("%y", "arith.subf", "%sq", "%b", "affine_map<(d0, d1) -> (0, d1)>",
             "tensor<1x5xf64>");
  checkGradients(forwardModule(5, body, "%y", kT5));
}

TEST(TrainingGradient, MulByBroadcastConstant) {
  std::string body =
      "    %s = arith.constant dense<[0.5, -1.0, 2.0, 3.0, -0.25]> : "
      "tensor<5xf64>\n" +
      binary("%y", "arith.mulf", "%mm", "%s", "#row", "tensor<5xf64>");
  checkGradients(forwardModule(5, body, "%y", kT5));
}

TEST(TrainingGradient, ChannelBiasOnFourDimensions) {
  // [4, 12] -> [4, 2, 2, 3] + b[2, 1, 1] (a conv bias) -> [4, 12]
  std::string body =
      R"(    %v = tensor.expand_shape %mm [[0], [1, 2, 3]] output_shape [4, 2, 2, 3] : tensor<4x12xf64> into tensor<4x2x2x3xf64>
    %b = arith.constant dense<0.0> : tensor<2x1x1xf64>
    %e4 = tensor.empty() : tensor<4x2x2x3xf64>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v, %b : tensor<4x2x2x3xf64>, tensor<2x1x1xf64>) outs(%e4 : tensor<4x2x2x3xf64>) {
    ^bb0(%p: f64, %q: f64, %o: f64):
      %r = arith.addf %p, %q : f64
      linalg.yield %r : f64
    } -> tensor<4x2x2x3xf64>
    %y = tensor.collapse_shape %s [[0], [1, 2, 3]] : tensor<4x2x2x3xf64> into tensor<4x12xf64>
)";
  checkGradients(forwardModule(12, body, "%y", "tensor<4x12xf64>"));
}

TEST(TrainingGradient, FlattenReshapeAndTranspose) {
  // [4, 6] -> [24] -> [4, 2, 3] -> transpose [0, 2, 1] -> [4, 6] + b
  std::string body =
      R"(    %f = tensor.collapse_shape %mm [[0, 1]] : tensor<4x6xf64> into tensor<24xf64>
    %v = tensor.expand_shape %f [[0, 1, 2]] output_shape [4, 2, 3] : tensor<24xf64> into tensor<4x2x3xf64>
    %et = tensor.empty() : tensor<4x3x2xf64>
    %t = linalg.transpose ins(%v : tensor<4x2x3xf64>) outs(%et : tensor<4x3x2xf64>) permutation = [0, 2, 1]
    %g = tensor.collapse_shape %t [[0], [1, 2]] : tensor<4x3x2xf64> into tensor<4x6xf64>
    %b = arith.constant dense<0.0> : tensor<6xf64>
)" + binary("%y", "arith.addf", "%g", "%b", "#row", "tensor<6xf64>", 6);
  checkGradients(forwardModule(6, body, "%y", "tensor<4x6xf64>"));
}

TEST(TrainingGradient, TwoLayers) {
  // relu(x @ W + b) @ W2: the rules chained, the input needing no gradient.
  std::string body =
      withBias(
          unary("%r1", "%h", "      %r = arith.maximumf %p, %zero : f64\n")) +
      R"(    %W2 = arith.constant dense<0.0> : tensor<5x2xf64>
    %e2 = tensor.empty() : tensor<4x2xf64>
    %z2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<4x2xf64>) -> tensor<4x2xf64>
    %y = linalg.matmul ins(%r1, %W2 : tensor<4x5xf64>, tensor<5x2xf64>) outs(%z2 : tensor<4x2xf64>) -> tensor<4x2xf64>
)";
  checkGradients(forwardModule(5, body, "%y", "tensor<4x2xf64>"));
}

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
                     const std::string &start) {
  std::string in = absl::StrCat("tensor<4x", c, "x", h, "x", h, "xf64>");
  std::string y = absl::StrCat("tensor<4x", c, "x", out, "x", out, "xf64>");
  return absl::StrCat(
      "    %start = arith.constant ", start,
      " : f64\n    %ep = tensor.empty() : ", y,
      "\n    %zp = linalg.fill ins(%start : f64) outs(%ep : ", y, ") -> ", y,
      "\n    %win = tensor.empty() : tensor<2x2xf64>\n    %pool = "
      "linalg.pooling_nchw_",
      kind,
      " {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : "
      "tensor<2xi64>} ins(%v, %win : ",
      in, ", tensor<2x2xf64>) outs(%zp : ", y, ") -> ", y, "\n");
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
