//===- reorder_operators.cc - Move and swap operators ---------------------===//

#include "absl/strings/str_cat.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace gevo {

/// Move: puts an op before another. Swap: exchanges two ops of one block.
/// Operands the change breaks are rewired.
absl::Status proposeReorder(const MutationScope &scope, Rng &rng, Edit &edit) {
  const AddressIndex &index = scope.index;
  const MutationOptions &options = scope.options;
  auto movable = candidates(index, options, isMovable);
  if (movable.empty())
    return noCandidate("op to move");
  mlir::Operation *target = pick(movable, rng);
  std::vector<mlir::Operation *> anchors;
  for (mlir::Operation *op : index.ops()) {
    if (op == target || op == target->getNextNode())
      continue;
    if (edit.kind == EditKind::Swap
            ? (isMovable(op) && op->getBlock() == target->getBlock())
            : functionOf(op) == functionOf(target))
      anchors.push_back(op);
  }
  if (anchors.empty())
    return noCandidate("place to move to");
  mlir::Operation *anchor = pick(anchors, rng);
  edit.target = *index.refOf(target);
  edit.anchor = *index.refOf(anchor);
  // Simulate on a clone to find the operands the move breaks.
  mlir::ModuleOp module = scope.module;
  mlir::OwningOpRef<mlir::ModuleOp> work(module.clone());
  AddressIndex workIndex(*work);
  absl::StatusOr<AddressIndex::Resolved> workTarget =
      workIndex.resolve(edit.target);
  absl::StatusOr<AddressIndex::Resolved> workAnchor =
      workIndex.resolve(edit.anchor);
  if (!workTarget.ok() || !workAnchor.ok())
    return noCandidate("address in the clone");
  // Only the structural part; the operands it breaks are fixed below.
  mlir::Operation *moved = workTarget->op;
  GEVO_RETURN_IF_ERROR(reorderOps(edit.kind, moved, workAnchor->op));
  return fixBrokenOperands(moved->getParentOfType<mlir::func::FuncOp>(),
                           workIndex, rng, edit);
}

} // namespace gevo
