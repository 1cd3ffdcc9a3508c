//===- reorder_support.h - What the move and swap operators share ---------===//
//
// Both put an op somewhere else in its function (move_operator.cc: before
// another op, swap_operator.cc: in another op's place) and rewire the
// operands the change leaves without a dominating value.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_REORDER_SUPPORT_H
#define GEVO_IR_REORDER_SUPPORT_H

#include "absl/status/status.h"
#include "gevo/ir/mutation_support.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace gevo {

class MutationOperator;

/// Picks a movable target and an anchor among the ops `isAnchor(target, op)`
/// accepts, then simulates `reorder`'s change on a clone of the module and
/// records a rewire for each operand it breaks.
absl::Status proposeReorder(
    const MutationScope &scope, Rng &rng, Edit &edit,
    llvm::function_ref<bool(mlir::Operation *target, mlir::Operation *op)>
        isAnchor,
    const MutationOperator &reorder);

} // namespace gevo

#endif // GEVO_IR_REORDER_SUPPORT_H
