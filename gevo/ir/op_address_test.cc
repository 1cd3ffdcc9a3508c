//===- op_address_test.cc - An op's address does not depend on its module ===//
//
// The address index fingerprints a whole module with one printer state;
// each op must still get the fingerprint fingerprintOf() gives it alone,
// also where what it prints depends on what was printed before (the
// numbering of distinct attributes). The index of a copy, made from the
// original's, holds the addresses the copy's own index holds.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/op_address.h"

#include "gevo/ir/mlir_support.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

constexpr char kModel[] = R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.constant {tag = distinct[0]<1 : i32>} 1.0 : f32
  %b = arith.constant {tag = distinct[1]<1 : i32>} 1.0 : f32
  %c = arith.addf %a, %b : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %g = arith.addf %c, %c : f32
  %h = arith.addf %g, %c {tag = distinct[2]<1 : i32>} : f32
  return %f : tensor<4xf32>
}
)";

TEST(OpAddressTest, TheIndexFingerprintsEachOpAsItsOwnPrintDoes) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      parseModule(*context, kModel, "model.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  AddressIndex index(**module);
  ASSERT_EQ(index.ops().size(), 8u);
  for (mlir::Operation *op : index.ops())
    EXPECT_EQ(index.refOf(op)->fingerprint, fingerprintOf(op))
        << toString(*index.refOf(op));
  // The two constants differ only in their distinct attribute, which each
  // prints as distinct[0] alone: their fingerprints are equal.
  EXPECT_EQ(index.refOf(index.ops()[0])->fingerprint,
            index.refOf(index.ops()[1])->fingerprint);
}

TEST(OpAddressTest, TheIndexOfACopyIsTheOneItsOwnPrintsGive) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      parseModule(*context, kModel, "model.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  AddressIndex index(**module);
  mlir::IRMapping mapping;
  mlir::OwningOpRef<mlir::ModuleOp> copy(
      llvm::cast<mlir::ModuleOp>((**module)->clone(mapping)));
  AddressIndex derived(*copy, index, mapping), own(*copy);
  ASSERT_EQ(derived.ops().size(), own.ops().size());
  for (size_t i = 0; i < own.ops().size(); ++i) {
    mlir::Operation *op = own.ops()[i];
    EXPECT_EQ(derived.ops()[i], op);
    EXPECT_EQ(derived.ops()[i], mapping.lookup(index.ops()[i]));
    ASSERT_TRUE(derived.refOf(op) && own.refOf(op));
    EXPECT_EQ(toString(*derived.refOf(op)), toString(*own.refOf(op)));
    // Every address resolves to the copy's op, as in the copy's own index.
    absl::StatusOr<AddressIndex::Resolved> found =
        derived.resolve(*own.refOf(op));
    ASSERT_TRUE(found.ok()) << found.status();
    EXPECT_EQ(found->op, op);
    EXPECT_EQ(found->fuzz, 0);
  }
}

} // namespace
} // namespace gevo
