//===- frontend_test.cc - TOSA legalised, ONNX imported, on load ----------===//

#include "gevo/ir/frontend.h"

#include "gevo/ir/mlir_support.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

constexpr char kTosa[] = R"(
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %b = "tosa.const"() {values = dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %s = tosa.add %x, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
)";

constexpr char kLinalg[] = R"(
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %c = linalg.copy ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %c : tensor<2x4xf32>
}
)";

std::string print(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

TEST(FrontendTest, TosaIsLegalisedToLinalgOnTensors) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  SourceForm form = SourceForm::Linalg;
  auto module = parseLinalgModule(*context, kTosa, "t.mlir", &form);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(form, SourceForm::Tosa);
  EXPECT_STREQ(toString(form), "tosa");
  EXPECT_TRUE(mlir::succeeded(mlir::verify(**module)));
  std::string text = print(**module);
  EXPECT_EQ(text.find("tosa."), std::string::npos) << text;
  EXPECT_THAT(text, HasSubstr("linalg.generic"));
  EXPECT_THAT(text, HasSubstr("arith.minimumf"));
}

TEST(FrontendTest, LinalgModulesAreLeftAsTheyAre) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto original = parseModule(*context, kLinalg, "l.mlir");
  ASSERT_TRUE(original.ok()) << original.status();
  SourceForm form = SourceForm::Tosa;
  auto module = parseLinalgModule(*context, kLinalg, "l.mlir", &form);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(form, SourceForm::Linalg);
  EXPECT_EQ(print(**module), print(**original));
}

TEST(FrontendTest, AnOpWithoutALegalisationIsAnErrorWithItsLocation) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = parseLinalgModule(*context, R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tosa.custom %x {domain_name = "gevo", implementation_attrs = "", operator_name = "mystery"} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
)",
                                  "c.mlir");
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(std::string(module.status().message()),
              HasSubstr("c.mlir:3:8: error: failed to legalize operation "
                        "'tosa.custom'"));
}

constexpr char kOnnxRelu[] =
    "/usr/share/libonnx-testdata/data/node/test_relu/model.onnx";

TEST(FrontendTest, AnOnnxFileIsImportedWithItsSettings) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  SourceForm form = SourceForm::Linalg;
  ImportSettings import;
  import.batch = 1;
  import.entry = "predict";
  auto module = loadLinalgModule(*context, kOnnxRelu, &form, import);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(form, SourceForm::Onnx);
  ASSERT_TRUE(mlir::succeeded(mlir::verify(**module)));
  EXPECT_THAT(print(**module), HasSubstr("func.func @predict("));
  // The text gevo-ml evaluates is the same import, byte for byte.
  absl::StatusOr<std::string> text = readModuleText(kOnnxRelu, import, &form);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(form, SourceForm::Onnx);
  auto again = parseModule(*context, *text, "again");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(print(**again), print(**module));
}

TEST(FrontendTest, AnOnnxFileWithoutABatchSaysHowToGiveIt) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = loadLinalgModule(*context, kOnnxRelu);
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(std::string(module.status().message()),
              HasSubstr("model.onnx: error: an ONNX model is imported with a "
                        "batch size: give --batch=N"));
}

TEST(FrontendTest, TheSourceLineNamesTheFormAndTheImport) {
  ImportSettings import;
  import.batch = 1000;
  EXPECT_EQ(sourceLine(SourceForm::Linalg, import), "");
  EXPECT_EQ(sourceLine(SourceForm::Tosa, import), "tosa");
  EXPECT_EQ(sourceLine(SourceForm::Onnx, import), "onnx batch=1000");
  import.entry = "predict";
  EXPECT_EQ(sourceLine(SourceForm::Onnx, import),
            "onnx batch=1000 entry=predict");
  EXPECT_TRUE(isOnnxPath("dir/model.onnx"));
  EXPECT_FALSE(isOnnxPath("dir/model.onnx.mlir"));
}

} // namespace
} // namespace gevo
