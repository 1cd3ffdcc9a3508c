//===- clone_operators.cc - Copy and replace operators --------------------===//

#include "absl/strings/str_cat.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/ir/repair.h"
#include "gevo/ir/visible_values.h"
#include "gevo/support/status_macros.h"

namespace gevo {

/// Copy: clones an op before another and wires its result into a later use.
/// Replace: clones an op in place of another, which is erased.
absl::Status proposeClone(const MutationScope &scope, Rng &rng, Edit &edit) {
  const AddressIndex &index = scope.index;
  const MutationOptions &options = scope.options;
  // A pinned target is the op copied, or for Replace the op replaced (the
  // source it is replaced with is then any op).
  MutationOptions sourceOptions = options;
  if (edit.kind == EditKind::Replace)
    sourceOptions.target = nullptr;
  auto sources = candidates(index, sourceOptions, [](mlir::Operation *op) {
    return isMovable(op) && op->getNumResults() > 0;
  });
  if (sources.size() < (edit.kind == EditKind::Replace ? 2u : 1u))
    return noCandidate("op to copy");
  mlir::Operation *source = pick(sources, rng);
  std::string function = functionOf(source);
  mlir::Operation *position = nullptr;
  if (edit.kind == EditKind::Copy) {
    std::vector<mlir::Operation *> anchors;
    for (mlir::Operation *op : index.ops())
      if (functionOf(op) == function && op != source)
        anchors.push_back(op);
    if (anchors.empty())
      return noCandidate("place to copy to");
    position = pick(anchors, rng);
    edit.target = *index.refOf(source);
    edit.anchor = *index.refOf(position);
  } else {
    std::vector<mlir::Operation *> targets;
    for (mlir::Operation *op : sources)
      if (op != source && functionOf(op) == function &&
          (!options.target || op == options.target))
        targets.push_back(op);
    if (targets.empty())
      return noCandidate("op to replace");
    position = pick(targets, rng);
    edit.target = *index.refOf(position);
    edit.anchor = *index.refOf(source);
  }
  auto excluded = [&](mlir::Value value) {
    return edit.kind == EditKind::Replace && value.getDefiningOp() == position;
  };
  std::vector<mlir::Value> visible = visibleValues(index, position, excluded);
  // The clone's operands: keep visible ones half of the time.
  for (mlir::OpOperand &operand : source->getOpOperands()) {
    mlir::Value current = operand.get();
    bool isVisible =
        std::find(visible.begin(), visible.end(), current) != visible.end();
    if (isVisible && chance(0.5, rng))
      continue;
    Rewire rewire;
    rewire.userIsNew = true;
    rewire.operand = static_cast<int>(operand.getOperandNumber());
    GEVO_RETURN_IF_ERROR(
        chooseValue(index, visible, current.getType(), nullptr, rng, rewire));
    edit.rewires.push_back(rewire);
  }
  if (edit.kind == EditKind::Copy) {
    // Wire result 0 into one later use that dominance allows.
    mlir::Value result = source->getResult(0);
    std::vector<std::pair<mlir::Operation *, unsigned>> uses;
    for (mlir::Operation *op = position; op; op = op->getNextNode())
      op->walk([&](mlir::Operation *user) {
        if (!index.refOf(user))
          return;
        for (mlir::OpOperand &operand : user->getOpOperands())
          if (planRepair(result.getType(), operand.get().getType()))
            uses.push_back({user, operand.getOperandNumber()});
      });
    if (uses.empty())
      return noCandidate("use for the copy's result");
    auto [user, operand] = pick(uses, rng);
    Rewire rewire;
    rewire.user = *index.refOf(user);
    rewire.operand = static_cast<int>(operand);
    rewire.value.kind = ValueRef::Kind::NewResult;
    rewire.value.index = 0;
    rewire.repair =
        drawRepair(result.getType(), user->getOperand(operand).getType(), rng);
    edit.rewires.push_back(rewire);
  } else {
    // The replaced op's uses take the clone's results where types allow,
    // else another visible value (indexed once: uses may be many).
    auto notTarget = [&](mlir::Value value) {
      return value.getDefiningOp() == position;
    };
    VisibleValueIndex visible(index, notTarget);
    for (mlir::OpResult result : position->getResults())
      for (mlir::OpOperand &use : result.getUses()) {
        Rewire rewire;
        rewire.user = *index.refOf(use.getOwner());
        rewire.operand = static_cast<int>(use.getOperandNumber());
        std::vector<int> fitting;
        for (mlir::OpResult own : source->getResults())
          if (planRepair(own.getType(), result.getType()))
            fitting.push_back(static_cast<int>(own.getResultNumber()));
        if (!fitting.empty()) {
          rewire.value.kind = ValueRef::Kind::NewResult;
          rewire.value.index = pick(fitting, rng);
          rewire.repair =
              drawRepair(source->getResult(rewire.value.index).getType(),
                         result.getType(), rng);
        } else {
          GEVO_RETURN_IF_ERROR(
              visible.choose(use.getOwner(), result.getType(), rng, rewire));
        }
        edit.rewires.push_back(rewire);
      }
  }
  return absl::OkStatus();
}

} // namespace gevo
