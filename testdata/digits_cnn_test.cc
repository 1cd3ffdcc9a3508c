//===- digits_cnn_test.cc - The shipped CNN workloads, linalg and TOSA ----===//
//
// The CNN evaluates with the default pipeline; its TOSA spelling, legalised
// to linalg on load, scores exactly what the linalg version scores; and a
// shrink of the convolution's output channels verifies,
// narrows the weights it should and still evaluates.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <string>

#include "gevo/eval/evaluator.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "replay/apply.h"
#include "replay/patch.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

WorkloadSpec load(const std::string &name) {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(findRunfile("testdata/" + name));
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? *spec : WorkloadSpec();
}

EvaluationReport evaluate(const WorkloadSpec &spec) {
  absl::StatusOr<EvaluationReport> report = evaluateWorkload(spec, {});
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *report : EvaluationReport();
}

/// The workload's module (legalised when TOSA) with `patchText` applied,
/// verified and printed.
std::string patched(const WorkloadSpec &spec, const std::string &patchText) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = loadLinalgModule(*context, spec.modulePath);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok())
    return "";
  absl::StatusOr<Patch> patch = parsePatch(patchText, "p.gevo");
  EXPECT_TRUE(patch.ok()) << patch.status();
  absl::StatusOr<ApplyReport> applied =
      applyPatch(**module, *patch, "p.gevo", OnMismatch::Error);
  EXPECT_TRUE(applied.ok()) << applied.status();
  EXPECT_TRUE(mlir::succeeded(mlir::verify(**module)));
  std::string text;
  llvm::raw_string_ostream os(text);
  (*module)->print(os);
  return text;
}

TEST(DigitsCnnTest, EvaluatesWithTheVectorPipeline) {
  WorkloadSpec spec = load("digits_cnn_predict");
  EvaluationReport report = evaluate(spec);
  EXPECT_EQ(report.validation.total, 360);
  EXPECT_GE(report.validation.accuracy(), 0.95);
  EXPECT_GE(report.test.accuracy(), 0.95);
  EXPECT_EQ(report.source, "linalg");
  // The convolution and pooling lower with the vector pipeline, no fallback.
  EXPECT_EQ(report.loweredWith, "vector");
  EXPECT_EQ(report.fallbackReason, "");
}

TEST(DigitsCnnTest, TheTosaVersionScoresExactlyAsTheLinalgVersion) {
  EvaluationReport linalg = evaluate(load("digits_cnn_predict"));
  EvaluationReport tosa = evaluate(load("digits_cnn_tosa"));
  EXPECT_EQ(tosa.source, "tosa");
  EXPECT_EQ(tosa.validation.total, 360);
  EXPECT_EQ(tosa.validation.correct, linalg.validation.correct);
  EXPECT_EQ(tosa.test.correct, linalg.test.correct);
  EXPECT_GE(tosa.validation.accuracy(), 0.95);
}

TEST(DigitsCnnTest, TheTosaVersionsLogitsMatchTheLinalgVersions) {
  WorkloadSpec linalgSpec = load("digits_cnn_predict");
  WorkloadSpec tosaSpec = load("digits_cnn_tosa");
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(linalgSpec);
  ASSERT_TRUE(data.ok()) << data.status();
  EvaluationOptions plain;
  plain.pipeline = "plain";
  auto a = runWorkloadResults(linalgSpec, *data, SplitRole::Validation, plain);
  auto b = runWorkloadResults(tosaSpec, *data, SplitRole::Validation, plain);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ((*a)[0].numElements(), (*b)[0].numElements());
  const float *x = (*a)[0].as<float>(), *y = (*b)[0].as<float>();
  for (int64_t i = 0; i < (*a)[0].numElements(); ++i)
    ASSERT_NEAR(x[i], y[i], 1e-4f * (1 + std::fabs(x[i]))) << "logit " << i;
}

TEST(DigitsCnnTest, ShrinkingTheConvolutionsChannelsEvaluates) {
  WorkloadSpec spec = load("digits_cnn_predict");
  // Keep 6 of the 8 output channels: the filter, its bias and the dense
  // layer's weights narrow together.
  std::string text = patched(spec, "gevo-patch 1\nmodel 0000000000000000\n"
                                   "shrink @main/linalg.conv_2d_nhwc_hwcf#0~"
                                   "9629bca5:0 dim 3 keep [0:6]\n");
  EXPECT_NE(text.find("tensor<3x3x1x6xf32>"), std::string::npos);
  EXPECT_NE(text.find("tensor<3x3x6x32xf32>"), std::string::npos);
  EXPECT_NE(text.find("tensor<360x3x3x6xf32>"), std::string::npos);
  EXPECT_EQ(text.find("x8xf32>"), std::string::npos);
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(spec);
  ASSERT_TRUE(data.ok()) << data.status();
  absl::StatusOr<EvaluationReport> report =
      evaluateModuleText(spec, *data, text, "shrunk.mlir", {});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->validation.total, 360);
  EXPECT_EQ(report->validation.nonFiniteRows, 0);
  // Six trained channels still read most digits.
  EXPECT_GE(report->validation.accuracy(), 0.5);
}

TEST(DigitsCnnTest, AHiddenLayerShrinkScoresTheSameOnBothForms) {
  // Every 2nd of the 32 dense hidden units: a generic contraction in the
  // linalg version, a batch_matmul over 1x360x72 in the legalised TOSA one.
  WorkloadSpec linalgSpec = load("digits_cnn_predict");
  WorkloadSpec tosaSpec = load("digits_cnn_tosa");
  std::string linalgText =
      patched(linalgSpec, "gevo-patch 1\nmodel 0000000000000000\n"
                          "shrink @main/linalg.generic#3~3172dc71:0 dim 1 "
                          "keep [0:32:2]\n");
  std::string tosaText =
      patched(tosaSpec, "gevo-patch 1\nmodel 0000000000000000\n"
                        "source tosa\n"
                        "shrink @main/linalg.batch_matmul#0~d9f8c6d6:0 dim 2 "
                        "keep [0:32:2]\n");
  EXPECT_NE(linalgText.find("tensor<3x3x8x16xf32>"), std::string::npos);
  EXPECT_NE(tosaText.find("tensor<1x72x16xf32>"), std::string::npos);
  EXPECT_NE(tosaText.find("tensor<1x16x10xf32>"), std::string::npos);
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(linalgSpec);
  ASSERT_TRUE(data.ok()) << data.status();
  absl::StatusOr<EvaluationReport> linalg =
      evaluateModuleText(linalgSpec, *data, linalgText, "linalg.mlir", {});
  absl::StatusOr<EvaluationReport> tosa =
      evaluateModuleText(tosaSpec, *data, tosaText, "tosa.mlir", {});
  ASSERT_TRUE(linalg.ok()) << linalg.status();
  ASSERT_TRUE(tosa.ok()) << tosa.status();
  EXPECT_EQ(tosa->validation.total, 360);
  EXPECT_EQ(tosa->validation.correct, linalg->validation.correct);
  // Half the units gone costs accuracy: the shrink really narrowed the layer.
  EvaluationReport whole = evaluate(linalgSpec);
  EXPECT_LT(linalg->validation.correct, whole.validation.correct);
}

TEST(DigitsCnnTest, AChannelShrinkThroughTheTosaFlattenScoresAsTheLinalgOne) {
  // TOSA flattens the pooled channels into the dense layer's rows with a
  // reshape (tensor.collapse_shape once legalised): channel c is every 8th
  // of the 72 rows from c, and those rows of the weights go with it. The
  // linalg version reads the same weights as 3x3x8x32, so keeping the first
  // 6 channels must score the same on both forms.
  WorkloadSpec linalgSpec = load("digits_cnn_predict");
  WorkloadSpec tosaSpec = load("digits_cnn_tosa");
  std::string linalgText =
      patched(linalgSpec, "gevo-patch 1\nmodel 0000000000000000\n"
                          "shrink @main/linalg.conv_2d_nhwc_hwcf#0~"
                          "9629bca5:0 dim 3 keep [0:6]\n");
  std::string tosaText =
      patched(tosaSpec, "gevo-patch 1\nmodel 0000000000000000\nsource tosa\n"
                        "shrink @main/linalg.conv_2d_nhwc_fhwc#0~f4ca6d5b:0 "
                        "dim 3 keep [0:6]\n");
  EXPECT_NE(tosaText.find("tensor<1x54x32xf32>"), std::string::npos);
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(linalgSpec);
  ASSERT_TRUE(data.ok()) << data.status();
  absl::StatusOr<EvaluationReport> linalg =
      evaluateModuleText(linalgSpec, *data, linalgText, "linalg.mlir", {});
  absl::StatusOr<EvaluationReport> tosa =
      evaluateModuleText(tosaSpec, *data, tosaText, "tosa.mlir", {});
  ASSERT_TRUE(linalg.ok()) << linalg.status();
  ASSERT_TRUE(tosa.ok()) << tosa.status();
  EXPECT_EQ(tosa->validation.total, 360);
  EXPECT_EQ(tosa->validation.correct, linalg->validation.correct);
  EXPECT_EQ(tosa->test.correct, linalg->test.correct);
  EvaluationReport whole = evaluate(tosaSpec);
  EXPECT_LT(tosa->validation.correct + tosa->test.correct,
            whole.validation.correct + whole.test.correct);
}

} // namespace
} // namespace gevo
