//===- constant_operator_test.cc - The constant operator, per use ---------===//
//
// The constant operator changes a constant everywhere or, for a constant with
// several uses, at one use only (one layer's learning rate): that edit is an
// operand edit to a materialised constant, and the other uses keep the old
// value.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

// Two "layers" updated with one learning rate %lr.
constexpr char kTwoUpdates[] = R"(
func.func @main(%w1: f32, %g1: f32, %w2: f32, %g2: f32) -> (f32, f32) {
  %lr = arith.constant 0.01 : f32
  %s1 = arith.mulf %lr, %g1 : f32
  %n1 = arith.subf %w1, %s1 : f32
  %s2 = arith.mulf %lr, %g2 : f32
  %n2 = arith.subf %w2, %s2 : f32
  return %n1, %n2 : f32, f32
}
)";

/// The value each mulf multiplies by, in program order.
std::vector<double> rates(mlir::ModuleOp module) {
  std::vector<double> out;
  module.walk([&](mlir::arith::MulFOp mul) {
    auto constant = mul.getLhs().getDefiningOp<mlir::arith::ConstantOp>();
    out.push_back(constant ? llvm::cast<mlir::FloatAttr>(constant.getValue())
                                 .getValueAsDouble()
                           : -999);
  });
  return out;
}

TEST(ConstantOperator, ChangesOneUseOrEveryUse) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      parseModule(*context, kTwoUpdates, "two_updates.mlir");
  ASSERT_TRUE(module.ok()) << module.status().message();
  MutationOptions options;
  options.kinds = {EditKind::Constant};
  std::mt19937_64 rng(3);
  int oneUse = 0, everyUse = 0;
  for (int i = 0; i < 60; ++i) {
    absl::StatusOr<Edit> edit =
        proposeEdit(**module, EditKind::Constant, options, rng);
    if (!edit.ok())
      continue;
    mlir::OwningOpRef<mlir::ModuleOp> copy((*module)->clone());
    ASSERT_TRUE(applyEdit(*copy, *edit).ok());
    ASSERT_TRUE(mlir::succeeded(mlir::verify(*copy)));
    std::vector<double> after = rates(*copy);
    ASSERT_EQ(after.size(), 2u);
    if (edit->kind == EditKind::Operand) {
      // One update takes the new rate; the other keeps 0.01.
      ASSERT_EQ(edit->rewires.size(), 1u);
      EXPECT_EQ(edit->rewires[0].value.kind, ValueRef::Kind::Constant);
      EXPECT_NE(after[0] == 0.01f, after[1] == 0.01f)
          << after[0] << " " << after[1];
      ++oneUse;
    } else {
      ASSERT_EQ(edit->kind, EditKind::Constant);
      if (edit->target.opName == "arith.constant" && after[0] != 0.01f) {
        EXPECT_EQ(after[0], after[1]);
        ++everyUse;
      }
    }
  }
  EXPECT_GT(oneUse, 5);
  EXPECT_GT(everyUse, 5);
}

} // namespace
} // namespace gevo
