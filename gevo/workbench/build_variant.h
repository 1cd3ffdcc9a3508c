//===- build_variant.h - An edit list applied to the unmodified module ----===//
//
// The one way a variant is made from an edit list: clone the unmodified
// module and apply the edits in order, leaving out any edit that does not
// apply to the module the earlier ones left (as may happen after crossover,
// or to a subset of a patch). Search, analysis and benches all build
// variants this way.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_BUILD_VARIANT_H
#define GEVO_WORKBENCH_BUILD_VARIANT_H

#include <memory>
#include <vector>

#include "gevo/ir/edit.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace gevo {

struct BuiltVariant {
  /// Keeps the context `module` lives in alive (null: its owner is the
  /// caller's); declared first so that the module goes first.
  std::shared_ptr<const void> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// The edits that applied, in order.
  std::vector<Edit> edits;
  /// How many edits did not apply and were left out.
  int dropped = 0;
};

/// Applies `edits` to a clone of `baseline` (which it leaves unchanged).
BuiltVariant buildVariant(mlir::ModuleOp baseline,
                          const std::vector<Edit> &edits);

/// The indices of `sent`'s edits missing from `applied`, the edits of a
/// variant built from it.
std::vector<int> droppedIndices(const std::vector<Edit> &sent,
                                const std::vector<Edit> &applied);

} // namespace gevo

#endif // GEVO_WORKBENCH_BUILD_VARIANT_H
