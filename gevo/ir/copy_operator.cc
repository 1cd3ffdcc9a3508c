//===- copy_operator.cc - The copy operator: clone an op elsewhere --------===//
//
// `copy <op> before <anchor>`: inserts a clone of an op before another op of
// its function; rewires set the clone's operands (`new[k]`) and wire its
// first result into one later use.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/clone_support.h"
#include "gevo/ir/edit_line_reader.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/repair.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

/// Wires the clone's result 0 into one use at or after `position` that
/// dominance allows.
absl::Status wireCopyResult(const AddressIndex &index, mlir::Operation *source,
                            mlir::Operation *position, Rng &rng, Edit &edit) {
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
  return absl::OkStatus();
}

class CopyOperator final : public MutationOperator {
public:
  EditKind kind() const override { return EditKind::Copy; }

  absl::Status propose(const MutationScope &scope, Rng &rng,
                       Edit &edit) const override {
    const AddressIndex &index = scope.index;
    auto sources = cloneSources(index, scope.options);
    if (sources.empty())
      return noCandidate("op to copy");
    mlir::Operation *source = pick(sources, rng);
    std::string function = functionOf(source);
    std::vector<mlir::Operation *> anchors;
    for (mlir::Operation *op : index.ops())
      if (functionOf(op) == function && op != source)
        anchors.push_back(op);
    if (anchors.empty())
      return noCandidate("place to copy to");
    mlir::Operation *position = pick(anchors, rng);
    edit.target = *index.refOf(source);
    edit.anchor = *index.refOf(position);
    GEVO_RETURN_IF_ERROR(
        rewireClone(index, source,
                    visibleValues(index, position, excludeNothing), rng, edit));
    return wireCopyResult(index, source, position, rng, edit);
  }

  bool createsOp() const override { return true; }

  absl::StatusOr<mlir::Operation *>
  change(const Edit &, mlir::Operation *target,
         mlir::Operation *anchor) const override {
    return insertClone(target, anchor);
  }

  std::string printPart(const Edit &edit) const override {
    return printAnchor("before", edit);
  }

  absl::Status parsePart(EditLineReader &reader, Edit &edit) const override {
    return readAnchor(reader, "before", edit);
  }
};

} // namespace

template <> const MutationOperator &operatorOf<EditKind::Copy>() {
  static const CopyOperator op;
  return op;
}

} // namespace gevo
