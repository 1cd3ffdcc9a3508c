//===- repair.h - Type and shape repair for rewired values ----------------===//
//
// When an edit wires a value of one type into an operand of another, a short
// chain of conversion ops makes it fit: arith casts (element type), a
// rank-reducing tensor.extract_slice (drop leading dims), extract_slice
// (crop: a block from an offset, with a stride), tensor.pad with zeros
// (grow), linalg.broadcast (add leading dims), tensor.splat (scalar to
// tensor) and tensor.extract (tensor to scalar). The steps (repair_step.h)
// follow from the two types, except where a crop's block starts and how far
// apart its indices are: a mutation draws that, the edit records it, and
// replay checks the rest against the plan. This is how evolution expresses
// pruning (a layer fed a cropped tensor).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_REPAIR_H
#define GEVO_IR_REPAIR_H

#include <cstddef>
#include <optional>

#include "absl/status/statusor.h"
#include "gevo/ir/repair_step.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace gevo {

/// The repair steps from `from` to `to`, every crop keeping the leading
/// block: empty when equal, nullopt when no repair exists (dynamic shapes,
/// non-numeric types, ...).
std::optional<Repair> planRepair(mlir::Type from, mlir::Type to);

/// Re-draws where each crop of `repair` (planned from `from`) takes its
/// block: the prefix, the suffix, or every 2nd index from 0 or from 1, where
/// that fits. `draw(n)` returns a uniform choice below `n`; it is called
/// once per crop.
void varyCrops(Repair &repair, mlir::Type from,
               llvm::function_ref<size_t(size_t)> draw);

/// Whether `recorded` is `plan` up to where its crops take their blocks.
bool fitsPlan(const Repair &recorded, const Repair &plan);

/// Builds `steps` at the builder's insertion point, turning `from` into a
/// value of type `to`. Errors when a step does not fit the value it gets (a
/// crop out of range, a cast to an unknown type, ...) or the last one does
/// not give `to`.
absl::StatusOr<mlir::Value> buildRepair(mlir::OpBuilder &builder,
                                        mlir::Location loc, mlir::Value from,
                                        const Repair &steps, mlir::Type to);

} // namespace gevo

#endif // GEVO_IR_REPAIR_H
