//===- training_test.cc - Generated training programs, run and checked ----===//
//
// The generated digits training against the hand-written one (same logits),
// SGD with momentum, weight decay and a shuffled row order against a C++
// reference on a tiny model, and the one-line errors for bad specs.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdio>
#include <regex>

#include "absl/strings/str_cat.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/frontend/training.h"
#include "gevo/frontend/training_testing.h"
#include "gevo/frontend/training_workload.h"
#include "gevo/support/file_io.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

std::vector<float> runLogits(const std::string &text, const std::string &entry,
                             const std::vector<HostTensor> &args) {
  auto compiled = CompiledModule::compile(text, entry);
  EXPECT_TRUE(compiled.ok()) << compiled.status();
  if (!compiled.ok())
    return {};
  absl::StatusOr<std::vector<HostTensor>> out = (*compiled)->run(args);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok())
    return {};
  const HostTensor &logits = out->front();
  return std::vector<float>(logits.as<float>(),
                            logits.as<float>() + logits.numElements());
}

TEST(Training, DigitsMatchesHandWrittenTraining) {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec("testdata/digits_mlp_train");
  ASSERT_TRUE(spec.ok()) << spec.status();
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(*spec);
  ASSERT_TRUE(data.ok()) << data.status();
  std::vector<HostTensor> args =
      bindArguments(*spec, *data, SplitRole::Validation);
  absl::StatusOr<std::string> handWritten =
      readFile(spec->modulePath, "module");
  ASSERT_TRUE(handWritten.ok());
  absl::StatusOr<std::string> generated =
      makeTrainingModule("testdata/digits_mlp_train_generated/training.json");
  ASSERT_TRUE(generated.ok()) << generated.status();
  std::vector<float> want = runLogits(*handWritten, "main", args);
  std::vector<float> got = runLogits(*generated, "train_eval", args);
  ASSERT_EQ(want.size(), 3600u);
  ASSERT_EQ(got.size(), want.size());
  double largest = 0, spread = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    largest = std::max(largest, double(std::fabs(got[i] - want[i])));
    spread = std::max(spread, double(std::fabs(want[i])));
  }
  std::printf("largest |generated - hand-written| logit: %g\n", largest);
  EXPECT_LE(largest, 1e-4);
  EXPECT_GT(spread, 1.0) << "the trained logits should not be near zero";
  // The shipped module is what the generator writes today.
  absl::StatusOr<std::string> shipped = readFile(
      "testdata/digits_mlp_train_generated/model.mlir", "generated module");
  ASSERT_TRUE(shipped.ok());
  EXPECT_EQ(*shipped, *generated)
      << "regenerate with bazel run //:make_training -- "
         "--workload=testdata/digits_mlp_train_generated/training.json -o "
         "testdata/digits_mlp_train_generated/model.mlir";
}

// y = x @ W + b on 2 features and 3 classes, weights given in the module.
const char *kTinyForward = R"(module {
  func.func @main(%x: tensor<6x2xf32>) -> tensor<6x3xf32> {
    %zero = arith.constant 0.0 : f32
    %W = arith.constant dense<[[0.5, -0.25, 0.1], [-0.3, 0.2, 0.4]]> : tensor<2x3xf32>
    %b = arith.constant dense<[0.05, -0.1, 0.0]> : tensor<3xf32>
    %e = tensor.empty() : tensor<6x3xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<6x3xf32>) -> tensor<6x3xf32>
    %mm = linalg.matmul ins(%x, %W : tensor<6x2xf32>, tensor<2x3xf32>) outs(%z : tensor<6x3xf32>) -> tensor<6x3xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<6x3xf32>, tensor<3xf32>) outs(%e : tensor<6x3xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %r = arith.addf %p, %q : f32
      linalg.yield %r : f32
    } -> tensor<6x3xf32>
    return %y : tensor<6x3xf32>
  }
}
)";

int64_t constantIn(const std::string &text, const std::string &name) {
  std::smatch match;
  std::regex pattern("%" + name + " = arith.constant ([0-9]+) : index");
  return std::regex_search(text, match, pattern) ? std::stoll(match[1]) : -1;
}

/// The tiny model trained in C++ exactly as the spec says.
std::vector<double> referenceTraining(const TrainingSpec &spec,
                                      const std::vector<float> &x,
                                      const std::vector<int> &labels,
                                      int64_t mul, int64_t step) {
  double W[2][3] = {{0.5, -0.25, 0.1}, {-0.3, 0.2, 0.4}},
         b[3] = {0.05, -0.1, 0};
  double vW[2][3] = {}, vb[3] = {};
  double lr = spec.learningRates[0], mu = spec.momentum.value_or(0),
         wd = spec.weightDecay.value_or(0);
  int64_t rows = spec.trainRows, batch = spec.batch;
  for (int64_t e = 0; e < spec.epochs; ++e)
    for (int64_t k = 0; k < rows / batch; ++k) {
      double dW[2][3] = {}, db[3] = {};
      for (int64_t i = 0; i < batch; ++i) {
        int64_t p = k * batch + i;
        int64_t r = mul < 0 ? p : (p * mul + e * step) % rows;
        double z[3], m = -1e30, sum = 0;
        for (int c = 0; c < 3; ++c) {
          z[c] = x[r * 2] * W[0][c] + x[r * 2 + 1] * W[1][c] + b[c];
          m = std::max(m, z[c]);
        }
        for (double &v : z)
          sum += (v = std::exp(v - m));
        for (int c = 0; c < 3; ++c) {
          double dl = (z[c] / sum - (labels[r] == c)) / batch;
          dW[0][c] += x[r * 2] * dl;
          dW[1][c] += x[r * 2 + 1] * dl;
          db[c] += dl;
        }
      }
      for (int c = 0; c < 3; ++c) {
        for (int f = 0; f < 2; ++f) {
          vW[f][c] = mu * vW[f][c] + dW[f][c] + wd * W[f][c];
          W[f][c] -= lr * vW[f][c];
        }
        vb[c] = mu * vb[c] + db[c] + wd * b[c];
        b[c] -= lr * vb[c];
      }
    }
  std::vector<double> logits;
  for (int64_t r = 0; r < rows; ++r)
    for (int c = 0; c < 3; ++c)
      logits.push_back(x[r * 2] * W[0][c] + x[r * 2 + 1] * W[1][c] + b[c]);
  return logits;
}

void checkAgainstReference(const std::string &specJson,
                           const std::string &forward = kTinyForward) {
  absl::StatusOr<TrainingSpec> spec = parseTrainingSpec(specJson, "test");
  ASSERT_TRUE(spec.ok()) << spec.status();
  spec->trainRows = spec->evalRows = 6;
  spec->classes = 3;
  absl::StatusOr<std::string> text =
      generateTrainingModule(forward, *spec, "tiny");
  ASSERT_TRUE(text.ok()) << text.status();
  std::vector<float> x = {1, 0, 0, 1, 1, 1, -1, 0.5, 0.2, -1, 2, -0.5};
  std::vector<int> labels = {0, 1, 2, 1, 0, 2};
  HostTensor tx(ElementType::F32, {6, 2}), ty(ElementType::F32, {6, 3});
  std::copy(x.begin(), x.end(), tx.as<float>());
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 3; ++c)
      ty.as<float>()[r * 3 + c] = labels[r] == c;
  std::vector<float> got = runLogits(*text, "train_eval", {tx, ty, tx});
  int64_t mul = spec->shuffleSeed ? constantIn(*text, "shuffle_mul") : -1;
  int64_t step = spec->shuffleSeed ? constantIn(*text, "shuffle_step") : 0;
  if (spec->shuffleSeed)
    ASSERT_GT(mul, 1) << *text;
  std::vector<double> want = referenceTraining(*spec, x, labels, mul, step);
  ASSERT_EQ(got.size(), want.size());
  double moved = 0;
  std::vector<double> untrained = referenceTraining(
      [&] {
        TrainingSpec none = *spec;
        none.epochs = 0;
        return none;
      }(),
      x, labels, -1, 0);
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-5) << i << "\n" << *text;
    moved = std::max(moved, std::fabs(want[i] - untrained[i]));
  }
  EXPECT_GT(moved, 1e-2) << "training should move the logits";
}

TEST(Training, PlainSgdMatchesReference) {
  checkAgainstReference(R"({"optimizer": {"kind": "sgd", "learning_rate": 0.5},
      "batch": 2, "epochs": 3, "init": "model"})");
}

TEST(Training, MomentumAndWeightDecayMatchReference) {
  checkAgainstReference(R"({"optimizer": {"kind": "sgd", "learning_rate": 0.5,
      "momentum": 0.9, "weight_decay": 0.01}, "batch": 2, "epochs": 3})");
}

TEST(Training, ShuffledRowsMatchReference) {
  checkAgainstReference(R"({"optimizer": {"kind": "sgd", "learning_rate": 0.5},
      "batch": 3, "epochs": 4, "shuffle": {"seed": 7}})");
}

TEST(Training, ImageShapedInputIsShapedFromTheDataRows) {
  // The model takes [rows, 1, 2] and flattens it itself; the data gives
  // [rows, 2].
  std::string forward = kTinyForward;
  std::string head = "func.func @main(%x: tensor<6x2xf32>)";
  forward.replace(forward.find(head), head.size(),
                  "func.func @main(%image: tensor<6x1x2xf32>)");
  std::string zero = "    %zero = arith.constant 0.0 : f32\n";
  forward.insert(forward.find(zero),
                 "    %x = tensor.collapse_shape %image [[0], [1, 2]] : "
                 "tensor<6x1x2xf32> into tensor<6x2xf32>\n");
  checkAgainstReference(R"({"optimizer": {"kind": "sgd", "learning_rate": 0.5},
      "batch": 2, "epochs": 2, "init": "model"})",
                        forward);
}

} // namespace
} // namespace gevo
