//===- reorder_support.cc - What the move and swap operators share --------===//

#include "gevo/ir/reorder_support.h"

#include "gevo/ir/mutation_operator.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace gevo {

absl::Status proposeReorder(
    const MutationScope &scope, Rng &rng, Edit &edit,
    llvm::function_ref<bool(mlir::Operation *target, mlir::Operation *op)>
        isAnchor,
    const MutationOperator &reorder) {
  const AddressIndex &index = scope.index;
  auto movable = candidates(index, scope.options, isMovable);
  if (movable.empty())
    return noCandidate("op to move");
  mlir::Operation *target = pick(movable, rng);
  std::vector<mlir::Operation *> anchors;
  for (mlir::Operation *op : index.ops())
    if (op != target && op != target->getNextNode() && isAnchor(target, op))
      anchors.push_back(op);
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
  GEVO_RETURN_IF_ERROR(reorder.change(edit, moved, workAnchor->op).status());
  return fixBrokenOperands(moved->getParentOfType<mlir::func::FuncOp>(),
                           workIndex, rng, edit);
}

} // namespace gevo
