//===- shrink_testing.h - The shrink tests' fixture -----------------------===//
//
// What every shrink test needs: a context, modules parsed from text, their
// canonical text (to compare a shrunk network with one written by hand), and
// a shrink edit applied to an addressed op.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_SHRINK_TESTING_H
#define GEVO_IR_SHRINK_TESTING_H

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace gevo {

class ShrinkTestBase : public ::testing::Test {
protected:
  mlir::OwningOpRef<mlir::ModuleOp> parse(const char *text) {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        parseModule(*context, text, "test.mlir");
    EXPECT_TRUE(module.ok()) << module.status();
    return std::move(*module);
  }

  /// Canonical text: canonicalize and CSE, then print.
  std::string canonical(mlir::ModuleOp module) {
    mlir::PassManager pm(context.get());
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
    EXPECT_TRUE(mlir::succeeded(pm.run(module)));
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    return text;
  }

  /// Applies `shrink target dim D keep K`.
  absl::Status shrinkAt(mlir::ModuleOp module, OpRef target, int dim,
                        Selection keep) {
    Edit edit;
    edit.kind = EditKind::Shrink;
    edit.target = std::move(target);
    edit.dim = dim;
    edit.keep = std::move(keep);
    return applyEdit(module, edit);
  }

  std::unique_ptr<mlir::MLIRContext> context = createContext();
};

} // namespace gevo

#endif // GEVO_IR_SHRINK_TESTING_H
