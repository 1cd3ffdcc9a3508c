//===- training_spec_test.cc - Bad training specs and models, one line each //
//
// Each refusal names the field or op at fault: a wrong or unknown field of
// the "training" object, a loss the model's output cannot feed, a batch
// larger than the data, an op without a gradient rule.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training.h"
#include "gevo/frontend/training_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string specError(const std::string &json) {
  absl::StatusOr<TrainingSpec> spec = parseTrainingSpec(json, "w.json");
  return spec.ok() ? "" : std::string(spec.status().message());
}

TEST(TrainingSpec, ReadsEveryField) {
  absl::StatusOr<TrainingSpec> spec = parseTrainingSpec(
      R"({"loss": "cross_entropy", "optimizer": {"kind": "sgd",
          "learning_rate": [0.1, 0.05], "momentum": 0.9, "weight_decay": 1e-4},
          "batch": 64, "epochs": 3, "init": {"seed": 5, "scale": "he"},
          "shuffle": {"seed": 11}})",
      "w.json");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->learningRates, (std::vector<double>{0.1, 0.05}));
  EXPECT_EQ(spec->momentum, 0.9);
  EXPECT_EQ(spec->weightDecay, 1e-4);
  EXPECT_EQ(spec->batch, 64);
  EXPECT_EQ(spec->epochs, 3);
  EXPECT_FALSE(spec->initFromModel);
  EXPECT_EQ(spec->seed, 5);
  EXPECT_EQ(spec->scale, "he");
  EXPECT_EQ(spec->shuffleSeed, 11);
}

TEST(TrainingSpec, NamesTheWrongField) {
  EXPECT_EQ(specError(R"({"lr": 0.1})"), "w.json: training.lr: unknown field");
  EXPECT_THAT(specError(R"({"loss": "mse"})"),
              HasSubstr("training.loss: must be \"cross_entropy\""));
  EXPECT_THAT(specError(R"({"optimizer": {"kind": "adam"}})"),
              HasSubstr("training.optimizer.kind"));
  EXPECT_THAT(specError(R"({"optimizer": {"kind": "sgd", "momentum": 1.5}})"),
              HasSubstr("training.optimizer.momentum"));
  EXPECT_THAT(specError(R"({"optimizer": {"kind": "sgd", "nesterov": true}})"),
              HasSubstr("training.optimizer.nesterov: unknown field"));
  EXPECT_THAT(specError(R"({"batch": 0})"), HasSubstr("training.batch"));
  EXPECT_THAT(specError(R"({"init": "zeros"})"), HasSubstr("training.init"));
  EXPECT_THAT(specError(R"({"init": {"seed": 1, "scale": "xavier"}})"),
              HasSubstr("training.init.scale"));
  EXPECT_THAT(specError(R"({"shuffle": 3})"), HasSubstr("training.shuffle"));
  EXPECT_THAT(specError("[1]"), HasSubstr("training: must be an object"));
  for (const char *json : {R"({"lr": 0.1})", R"({"batch": -1})"})
    EXPECT_THAT(specError(json), Not(HasSubstr("\n")));
}

const char *kForward = R"(module {
  func.func @main(%x: tensor<8x4xf32>) -> tensor<8x3xf32> {
    %zero = arith.constant 0.0 : f32
    %W = arith.constant dense<0.5> : tensor<4x3xf32>
    %e = tensor.empty() : tensor<8x3xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x3xf32>) -> tensor<8x3xf32>
    %mm = linalg.matmul ins(%x, %W : tensor<8x4xf32>, tensor<4x3xf32>) outs(%z : tensor<8x3xf32>) -> tensor<8x3xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<8x3xf32>) outs(%e : tensor<8x3xf32>) {
    ^bb0(%p: f32, %o: f32):
      %r = BODY
      linalg.yield %r : f32
    } -> tensor<8x3xf32>
    return %y : tensor<8x3xf32>
  }
}
)";

std::string forwardWith(const std::string &body) {
  std::string text = kForward;
  return text.replace(text.find("BODY"), 4, body);
}

TrainingSpec dataSizes(int64_t rows, int64_t classes) {
  TrainingSpec spec;
  spec.trainRows = rows;
  spec.evalRows = 10;
  spec.classes = classes;
  spec.batch = 4;
  return spec;
}

std::string generateError(const std::string &forward, const TrainingSpec &s) {
  absl::StatusOr<std::string> text = generateTrainingModule(forward, s, "f");
  return text.ok() ? "" : std::string(text.status().message());
}

TEST(TrainingSpec, RefusesWhatTheModelOrDataCannotTake) {
  std::string tanh = forwardWith("math.tanh %p : f32");
  EXPECT_EQ(generateError(tanh, dataSizes(100, 3)), "");
  EXPECT_THAT(
      generateError(forwardWith("math.sin %p : f32"), dataSizes(100, 3)),
      HasSubstr("op without a gradient rule: linalg.generic"));
  EXPECT_THAT(generateError(tanh, dataSizes(100, 10)),
              HasSubstr("training.loss: cross_entropy needs [batch, 10] "
                        "logits; the model returns tensor<8x3xf32>"));
  TrainingSpec big = dataSizes(100, 3);
  big.batch = 101;
  EXPECT_EQ(generateError(tanh, big),
            "training.batch: 101 is larger than the 100 training rows");
  TrainingSpec rates = dataSizes(100, 3);
  rates.learningRates = {0.1, 0.2, 0.3};
  EXPECT_THAT(generateError(tanh, rates),
              HasSubstr("training.optimizer.learning_rate"));
}

} // namespace
} // namespace gevo
