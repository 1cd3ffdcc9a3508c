//===- conv_labels_test.cc - Effect labels of shrinks on the digits CNN ---===//
//
// A shrink of the CNN's convolution channels is labelled pruned channels
// with the right counts; one of its dense hidden layer, pruned units, on the
// linalg spelling and on the TOSA one legalised to linalg.
//
//===----------------------------------------------------------------------===//

#include "analysis/labels.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/apply.h"
#include "replay/patch.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

class ConvLabelsTest : public ::testing::Test {
protected:
  /// The label of the last edit of `patch`, replayed on `workload`.
  EffectLabel label(const std::string &workload, const std::string &patch) {
    absl::StatusOr<WorkloadSpec> spec =
        loadWorkloadSpec(findRunfile("testdata/" + workload));
    EXPECT_TRUE(spec.ok()) << spec.status();
    auto module = loadLinalgModule(*context, spec->modulePath);
    EXPECT_TRUE(module.ok()) << module.status();
    absl::StatusOr<Patch> parsed = parsePatch(patch, "p.gevo");
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    if (!spec.ok() || !module.ok() || !parsed.ok())
      return {};
    mlir::OwningOpRef<mlir::ModuleOp> copy((*module)->clone());
    absl::StatusOr<ApplyReport> applied =
        applyPatch(*copy, *parsed, "p.gevo", OnMismatch::Error);
    EXPECT_TRUE(applied.ok()) << applied.status();
    std::vector<Edit> edits = parsed->edits();
    return labelEdit(**module, *spec, edits, edits.size() - 1, {});
  }

  EffectLabel labelFile(const std::string &workload, const std::string &name) {
    absl::StatusOr<Patch> patch =
        loadPatch(findRunfile("analysis/testdata/labels/" + name));
    EXPECT_TRUE(patch.ok()) << patch.status();
    return patch.ok() ? label(workload, printPatch(*patch)) : EffectLabel();
  }

  std::unique_ptr<mlir::MLIRContext> context = createContext();
};

TEST_F(ConvLabelsTest, ShrinkOfConvolutionChannelsPrunesChannels) {
  EffectLabel l = labelFile("digits_cnn_predict", "shrink_conv_channels.gevo");
  EXPECT_EQ(l.kind, "pruned channels") << l.summary;
  EXPECT_EQ(l.pruned, 4);
  EXPECT_EQ(l.total, 8);
  EXPECT_NE(l.summary.find("4 of 8 kept (every 2nd from 0)"), std::string::npos)
      << l.summary;
}

TEST_F(ConvLabelsTest, ShrinkOfTheDenseHiddenLayerPrunesUnits) {
  EffectLabel l = labelFile("digits_cnn_predict", "shrink_cnn_hidden.gevo");
  EXPECT_EQ(l.kind, "pruned units") << l.summary;
  EXPECT_EQ(l.pruned, 16);
  EXPECT_EQ(l.total, 32);
}

TEST_F(ConvLabelsTest, UnitsOfTheLegalisedTosaDenseLayerToo) {
  // The TOSA form's dense layer is a batch_matmul over 1x360x72.
  EffectLabel l = label("digits_cnn_tosa",
                        "gevo-patch 1\nmodel 0000000000000000\nsource tosa\n"
                        "shrink @main/linalg.batch_matmul#0~d9f8c6d6:0 "
                        "dim 2 keep [0:8]\n");
  EXPECT_EQ(l.kind, "pruned units") << l.summary;
  EXPECT_EQ(l.pruned, 24);
  EXPECT_EQ(l.total, 32);
}

} // namespace
} // namespace gevo
