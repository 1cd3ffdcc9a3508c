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
#include <string>
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
  /// modelFingerprint(*module) where the builder knew it (a VariantContext
  /// keys what it builds once); empty otherwise. Read it through keyOf().
  std::string key;
};

/// The variant's model fingerprint: its `key`, or computed when empty.
std::string keyOf(const BuiltVariant &built);

/// Applies `edits` to a clone of `baseline` (which it leaves unchanged).
BuiltVariant buildVariant(mlir::ModuleOp baseline,
                          const std::vector<Edit> &edits);
/// Applies `edits` after those `built` holds, as buildVariant() would have
/// had they followed them in its list.
BuiltVariant continueBuild(BuiltVariant built, const std::vector<Edit> &edits);

/// The indices of `sent`'s edits missing from `applied`, the edits of a
/// variant built from it.
std::vector<int> droppedIndices(const std::vector<Edit> &sent,
                                const std::vector<Edit> &applied);

} // namespace gevo

#endif // GEVO_WORKBENCH_BUILD_VARIANT_H
