//===- frontend_test.cc - TOSA modules legalised to linalg on load --------===//

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

} // namespace
} // namespace gevo
