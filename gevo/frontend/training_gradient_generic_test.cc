//===- training_gradient_generic_test.cc - Any elementwise body's rule ----===//
//
// Elementwise bodies no specific rule matches (an imported BatchNormalization
// folded to scale and shift, ELU, Clip, a normalisation with a square root, a
// broadcast column) differentiated op by op, against central finite
// differences in f64.
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/frontend/training_testing.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

const char *kT5 = "tensor<4x5xf64>";
const char *kRow = "affine_map<(d0, d1) -> (d1)>";
const char *kId = "affine_map<(d0, d1) -> (d0, d1)>";

struct Input {
  std::string value, type, map;
};

/// %y = a linalg.generic over 4x5 reading `ins`, whose body (block
/// arguments %a0, %a1, ...) computes %r.
std::string generic(const std::vector<Input> &ins, const std::string &ops) {
  std::vector<std::string> values, types, maps, args;
  for (size_t i = 0; i < ins.size(); ++i) {
    values.push_back(ins[i].value);
    types.push_back(ins[i].type);
    maps.push_back(ins[i].map);
    args.push_back(absl::StrCat("%a", i, ": f64"));
  }
  maps.push_back(kId);
  args.push_back("%out: f64");
  return absl::StrCat(
      "    %y = linalg.generic {indexing_maps = [", absl::StrJoin(maps, ", "),
      "], iterator_types = [\"parallel\", \"parallel\"]} ins(",
      absl::StrJoin(values, ", "), " : ", absl::StrJoin(types, ", "),
      ") outs(%e : ", kT5, ") {\n    ^bb0(", absl::StrJoin(args, ", "), "):\n",
      ops, "      linalg.yield %r : f64\n    } -> ", kT5, "\n");
}

std::string rowConstant(const std::string &name, const std::string &values) {
  return absl::StrCat("    ", name, " = arith.constant dense<[", values,
                      "]> : tensor<5xf64>\n");
}

TEST(TrainingGradientGeneric, BatchNormalizationAsImported) {
  // y = x * scale + shift per feature, the constants frozen.
  std::string body = rowConstant("%scale", "0.5, 2.0, -1.0, 1.5, 0.25") +
                     rowConstant("%shift", "0.1, -0.2, 0.3, 0.0, 1.0") +
                     generic({{"%mm", kT5, kId},
                              {"%scale", "tensor<5xf64>", kRow},
                              {"%shift", "tensor<5xf64>", kRow}},
                             "      %m = arith.mulf %a0, %a1 : f64\n"
                             "      %r = arith.addf %m, %a2 : f64\n");
  checkGradients(forwardModule(5, body, "%y", kT5));
}

TEST(TrainingGradientGeneric, Elu) {
  std::string body = generic({{"%mm", kT5, kId}},
                             "      %c = arith.cmpf ogt, %a0, %zero : f64\n"
                             "      %ex = math.exp %a0 : f64\n"
                             "      %d = arith.subf %ex, %one : f64\n"
                             "      %alpha = arith.constant 0.7 : f64\n"
                             "      %n = arith.mulf %alpha, %d : f64\n"
                             "      %r = arith.select %c, %a0, %n : f64\n");
  checkGradients(forwardModule(5, body, "%y", kT5));
}

TEST(TrainingGradientGeneric, Clip) {
  std::string body =
      generic({{"%mm", kT5, kId}}, "      %lo = arith.constant -0.3 : f64\n"
                                   "      %hi = arith.constant 0.4 : f64\n"
                                   "      %m = arith.maximumf %a0, %lo : f64\n"
                                   "      %r = arith.minimumf %m, %hi : f64\n");
  checkGradients(forwardModule(5, body, "%y", kT5));
}

TEST(TrainingGradientGeneric, SquareRootLogAbsAndNegation) {
  // y = log(sqrt(|a| + 1)) - a / (a * a + 1), every scalar rule at once.
  std::string body =
      generic({{"%mm", kT5, kId}}, "      %b = math.absf %a0 : f64\n"
                                   "      %c = arith.addf %b, %one : f64\n"
                                   "      %s = math.sqrt %c : f64\n"
                                   "      %l = math.log %s : f64\n"
                                   "      %q = arith.mulf %a0, %a0 : f64\n"
                                   "      %p = arith.addf %q, %one : f64\n"
                                   "      %d = arith.divf %a0, %p : f64\n"
                                   "      %n = arith.negf %d : f64\n"
                                   "      %t = math.tanh %n : f64\n"
                                   "      %r = arith.addf %l, %t : f64\n");
  checkGradients(forwardModule(5, body, "%y", kT5));
}

TEST(TrainingGradientGeneric, BroadcastColumnThatNeedsAGradient) {
  // y = mm * col + mm with col = x @ W2 ([4, 1]) read as (d0, 0): the
  // column's gradient is summed along the row.
  std::string body = R"(    %W2 = arith.constant dense<0.0> : tensor<3x1xf64>
    %e1 = tensor.empty() : tensor<4x1xf64>
    %z1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<4x1xf64>) -> tensor<4x1xf64>
    %col = linalg.matmul ins(%x, %W2 : tensor<4x3xf64>, tensor<3x1xf64>) outs(%z1 : tensor<4x1xf64>) -> tensor<4x1xf64>
)" + generic({{"%mm", kT5, kId},
              {"%col", "tensor<4x1xf64>",
               "affine_map<(d0, d1) -> "
               "(d0, 0)>"}},
             "      %m = arith.mulf %a0, "
             "%a1 : f64\n"
             "      %r = arith.addf %m, "
             "%a0 : f64\n");
  checkGradients(forwardModule(5, body, "%y", kT5));
}

} // namespace
} // namespace gevo
