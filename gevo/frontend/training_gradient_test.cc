//===- training_gradient_test.cc - Each gradient rule against finite differences
//
// Tiny f64 forward modules, one per rule (and the broadcasts, reshapes and
// shared values between them): the generated reverse pass's gradient of
// L = sum(y * dy) for every parameter element must match central finite
// differences of the forward function, both compiled through the CPU Target.
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_cat.h"
#include "gevo/frontend/training_testing.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

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

TEST(TrainingGradient, DivisionByAValueThatAlsoDependsOnTheWeights) {
  // y = mm / sigmoid(mm): both operands of the quotient need gradients.
  std::string body = unary("%s", "%mm",
                           "      %n = arith.negf %p : f64\n"
                           "      %x1 = math.exp %n : f64\n"
                           "      %d = arith.addf %one, %x1 : f64\n"
                           "      %r = arith.divf %one, %d : f64\n") +
                     binary("%y", "arith.divf", "%mm", "%s", "#id", kT5);
  checkGradients(forwardModule(5, body, "%y", kT5));
}

} // namespace
} // namespace gevo
