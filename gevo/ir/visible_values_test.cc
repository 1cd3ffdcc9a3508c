//===- visible_values_test.cc - The index chooses as chooseValue does -----===//

#include "gevo/ir/visible_values.h"

#include "gevo/ir/mlir_support.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

// Several types, values used many times, and nested regions (scf.for in
// scf.if) whose ops see values of the blocks around them.
constexpr const char kModel[] = R"mlir(
func.func @main(%a: f32, %n: index, %t: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i = arith.constant 3 : i32
  %x = arith.mulf %a, %a : f32
  %y = arith.addf %x, %a : f32
  %cond = arith.cmpf olt, %x, %y : f32
  %r = scf.if %cond -> f32 {
    %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> f32 {
      %z = arith.mulf %acc, %y : f32
      %w = arith.sitofp %i : i32 to f32
      %v = arith.addf %z, %w : f32
      scf.yield %v : f32
    }
    scf.yield %s : f32
  } else {
    %e = tensor.extract %t[%c0] : tensor<4xf32>
    scf.yield %e : f32
  }
  %out = arith.addf %r, %x : f32
  return %out : f32
}
)mlir";

TEST(VisibleValueIndexTest, ChoosesExactlyAsChooseValueOverVisibleValues) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto module = parseModule(*context, kModel, "model.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  AddressIndex index(**module);
  mlir::Operation *excludedOp = nullptr;
  for (mlir::Operation *op : index.ops())
    if (op->getName().getStringRef() == "arith.addf")
      excludedOp = op; // the last one: its result is never offered
  auto excluded = [&](mlir::Value value) {
    return value.getDefiningOp() == excludedOp;
  };
  VisibleValueIndex visible(index, excluded);
  int compared = 0;
  for (mlir::Operation *user : index.ops())
    for (mlir::Value operand : user->getOperands())
      for (uint64_t seed = 0; seed < 20; ++seed) {
        Rng expectedRng(seed), actualRng(seed);
        Rewire expected, actual;
        absl::Status want =
            chooseValue(index, visibleValues(index, user, excluded),
                        operand.getType(), nullptr, expectedRng, expected);
        absl::Status got =
            visible.choose(user, operand.getType(), actualRng, actual);
        ASSERT_EQ(want.ok(), got.ok()) << want << " vs " << got;
        EXPECT_TRUE(expected == actual)
            << toString(*index.refOf(user)) << " seed " << seed << ": "
            << toString(expected.value) << " vs " << toString(actual.value);
        EXPECT_TRUE(expected.repair == actual.repair);
        EXPECT_EQ(expectedRng(), actualRng()) << "draws differ";
        ++compared;
      }
  EXPECT_GT(compared, 200);
}

} // namespace
} // namespace gevo
