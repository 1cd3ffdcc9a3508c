//===- labels_test.cc - Effect labels of crafted patches with known effects
//===//
//
// Each patch under testdata/labels does one thing to the digits training
// workload whose effect is known; its label must say so, with the right
// numbers.
//
//===----------------------------------------------------------------------===//

#include "analysis/labels.h"

#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/apply.h"
#include "replay/patch.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

class LabelsTest : public ::testing::Test {
protected:
  void SetUp() override {
    absl::StatusOr<WorkloadSpec> loaded =
        loadWorkloadSpec(findRunfile("testdata/digits_mlp_train"));
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    spec = *loaded;
    auto parsed = loadModule(*context, spec.modulePath);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    module = std::move(*parsed);
  }

  /// The label of the last edit of a crafted patch (which must replay).
  EffectLabel label(const std::string &name,
                    const EditEvidence &evidence = {}) {
    return labelIn(*module, "analysis/testdata/labels/" + name, evidence);
  }

  /// The same on a program shaped unlike the shipped ones, trained with the
  /// digits workload's data.
  EffectLabel labelOnShape(const std::string &moduleName,
                           const std::string &patchName) {
    auto parsed = loadModule(
        *context, findRunfile("analysis/testdata/shapes/" + moduleName));
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    if (!parsed.ok())
      return {};
    return labelIn(**parsed, "analysis/testdata/shapes/" + patchName, {});
  }

  EffectLabel labelIn(mlir::ModuleOp module, const std::string &runfile,
                      const EditEvidence &evidence) {
    std::string path = findRunfile(runfile);
    absl::StatusOr<Patch> patch = loadPatch(path);
    EXPECT_TRUE(patch.ok()) << patch.status();
    mlir::OwningOpRef<mlir::ModuleOp> copy(module.clone());
    absl::StatusOr<ApplyReport> applied =
        applyPatch(*copy, *patch, path, OnMismatch::Error);
    EXPECT_TRUE(applied.ok()) << applied.status();
    std::vector<Edit> edits = patch->edits();
    return labelEdit(module, spec, edits, edits.size() - 1, evidence);
  }

  std::unique_ptr<mlir::MLIRContext> context = createContext();
  WorkloadSpec spec;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(LabelsTest, RolesFollowCallsIntoAnInitialiserHelper) {
  EffectLabel l = labelOnShape("helper_init.mlir", "helper_init_scale.gevo");
  EXPECT_EQ(l.kind, "initialisation change") << l.summary;
  EXPECT_EQ(l.roles, "parameter");
}

TEST_F(LabelsTest, AnEpochBoundReadFromDataIsAScheduleChange) {
  // The new trip count cannot be computed; the cast in the repair is not a
  // precision change.
  EffectLabel l = label("epochs_from_data.gevo");
  EXPECT_EQ(l.kind, "training schedule change") << l.summary;
  EXPECT_NE(l.summary.find("upper bound of epochs"), std::string::npos)
      << l.summary;
  EXPECT_NE(l.summary.find("trip count 5 -> not computable"), std::string::npos)
      << l.summary;
}

TEST_F(LabelsTest, ASoftmaxReadingOtherLogitsIsALossChange) {
  EffectLabel l = label("softmax_without_bias.gevo");
  EXPECT_EQ(l.kind, "loss change") << l.summary;
}

TEST_F(LabelsTest, ShrinkOfAHiddenLayerPrunesUnits) {
  EffectLabel l = label("shrink_hidden.gevo");
  EXPECT_EQ(l.kind, "pruned units") << l.summary;
  EXPECT_EQ(l.pruned, 16);
  EXPECT_EQ(l.total, 32);
  EXPECT_NE(l.summary.find("16 of 32 kept (every 2nd from 0)"),
            std::string::npos)
      << l.summary;
}

TEST_F(LabelsTest, ShrinkOfTheBatchRowsChangesTheBatchSize) {
  EffectLabel l = label("shrink_batch.gevo");
  EXPECT_EQ(l.kind, "batch-size change") << l.summary;
  EXPECT_NEAR(l.factor, 0.5, 1e-9);
  EXPECT_NE(l.summary.find("32 -> 16 rows (the first 16)"), std::string::npos)
      << l.summary;
}

TEST_F(LabelsTest, LearningRateConstant) {
  EffectLabel l = label("lr_constant.gevo");
  EXPECT_EQ(l.kind, "learning-rate change") << l.summary;
  EXPECT_NEAR(l.factor, 0.5, 1e-6);
  EXPECT_NE(l.summary.find("x0.5"), std::string::npos) << l.summary;
  EXPECT_EQ(l.roles, "update");
}

TEST_F(LabelsTest, LearningRateRewiredToAConstant) {
  EffectLabel l = label("lr_operand.gevo");
  EXPECT_EQ(l.kind, "learning-rate change") << l.summary;
  EXPECT_NEAR(l.factor, 5.0, 1e-5);
}

TEST_F(LabelsTest, LossGradientDivisorHalved) {
  // The batch mean's divisor 32 -> 16 (as a search did): every gradient,
  // and so every update, doubles.
  EffectLabel l = label("gradient_scale.gevo");
  EXPECT_EQ(l.kind, "learning-rate change") << l.summary;
  EXPECT_NEAR(l.factor, 2.0, 1e-9);
  EXPECT_NE(l.summary.find("divisor 32 -> 16"), std::string::npos) << l.summary;
}

TEST_F(LabelsTest, UpdateStartsFromAConstant) {
  EffectLabel l = label("reset.gevo");
  EXPECT_EQ(l.kind, "parameter reset") << l.summary;
  EXPECT_NE(l.summary.find("starts from 2 "), std::string::npos) << l.summary;
}

TEST_F(LabelsTest, EpochsCut) {
  EffectLabel l = label("epochs.gevo");
  EXPECT_EQ(l.kind, "training schedule change") << l.summary;
  EXPECT_NE(l.summary.find("epochs 5 -> 2"), std::string::npos) << l.summary;
  EXPECT_NEAR(l.factor, 0.4, 1e-9);
}

TEST_F(LabelsTest, BatchBoundDeletedAndRewired) {
  EffectLabel l = label("batches.gevo");
  EXPECT_EQ(l.kind, "training schedule change") << l.summary;
  EXPECT_NE(l.summary.find("batches per epoch 33 -> 32"), std::string::npos)
      << l.summary;
}

TEST_F(LabelsTest, BatchBoundReplacedByAComputedValue) {
  EffectLabel l = label("replace_bound.gevo");
  EXPECT_EQ(l.kind, "training schedule change") << l.summary;
  EXPECT_NE(l.summary.find("batches per epoch 33 -> 0"), std::string::npos)
      << l.summary;
}

TEST_F(LabelsTest, FirstLayerWeightsPrunedByPadding) {
  // W2 (32x10 = 320 values) padded to 64x32 (2048): 1728 zeros.
  EffectLabel l = label("prune.gevo");
  EXPECT_EQ(l.kind, "parameter pruning") << l.summary;
  EXPECT_EQ(l.pruned, 1728);
  EXPECT_EQ(l.total, 2048);
  EXPECT_NE(l.summary.find("weights"), std::string::npos) << l.summary;
}

TEST_F(LabelsTest, PredictionReluSkipped) {
  EffectLabel l = label("skip_relu.gevo");
  EXPECT_EQ(l.kind, "layer or activation skipped") << l.summary;
  EXPECT_NE(l.summary.find("ReLU"), std::string::npos) << l.summary;
  EXPECT_NE(l.summary.find("prediction"), std::string::npos) << l.summary;
}

TEST_F(LabelsTest, HiddenLayerErrorSignalDeleted) {
  // Without dlogits x W2^T the first layer's weight and bias updates get no
  // gradient; the output layer's still do.
  EffectLabel l = label("gradient_dropped.gevo");
  EXPECT_EQ(l.kind, "gradient dropped") << l.summary;
  EXPECT_NE(l.summary.find("linalg.matmul"), std::string::npos) << l.summary;
  EXPECT_NE(l.summary.find("reaches 2 weight updates"), std::string::npos)
      << l.summary;
}

TEST_F(LabelsTest, SoftmaxMaxSubtractionBypassed) {
  EffectLabel l = label("stability.gevo");
  EXPECT_EQ(l.kind, "numerical-stability change") << l.summary;
}

TEST_F(LabelsTest, CastIntoTheForwardPass) {
  EffectLabel l = label("precision.gevo");
  EXPECT_EQ(l.kind, "precision change") << l.summary;
  EXPECT_NE(l.summary.find("index"), std::string::npos) << l.summary;
}

TEST_F(LabelsTest, InitialScaleChanged) {
  EffectLabel l = label("init_scale.gevo");
  EXPECT_EQ(l.kind, "initialisation change") << l.summary;
  EXPECT_NEAR(l.factor, -1 / 0.353553385, 1e-4);
}

TEST_F(LabelsTest, InitialValuesComputedDifferently) {
  // A swap inside W1's initialisation generic: no constant is scaled, yet
  // only initial values change (every W1 weight starts at 0.0625).
  EffectLabel l = label("init_redrawn.gevo");
  EXPECT_EQ(l.kind, "initialisation change") << l.summary;
  EXPECT_NE(l.summary.find("computed differently (swap of arith.index_cast)"),
            std::string::npos)
      << l.summary;
  EXPECT_EQ(l.roles, "parameter");
}

TEST_F(LabelsTest, DeadComputationNeedsSameAnswersAndLessCost) {
  Measurement base;
  base.validation = {335, 360, 0};
  base.staticCost = 1000;
  base.runtimeRatio = 1;
  Measurement alone = base;
  alone.staticCost = 900;
  alone.runtimeRatio = 0.9;
  EditEvidence evidence;
  evidence.baseline = base;
  evidence.alone = alone;
  // The stability patch's edit, with evidence that it changes nothing but
  // cost, is still a stability change (a static rule comes first)...
  EXPECT_EQ(label("stability.gevo", evidence).kind,
            "numerical-stability change");
  // ...while an edit no static rule explains is dead computation.
  EffectLabel l = label("dead.gevo", evidence);
  EXPECT_EQ(l.kind, "dead computation removed") << l.summary;
  EXPECT_NE(l.evidence.find("accuracy 0.9306 -> 0.9306"), std::string::npos)
      << l.evidence;
  alone.validation.correct = 334;
  evidence.alone = alone;
  EXPECT_EQ(label("dead.gevo", evidence).kind, "other");
}

} // namespace
} // namespace gevo
