//===- replace_operator.cc - The replace operator: one op for another -----===//
//
// `replace <op> with <source>`: inserts a clone of the source before the op,
// gives the op's uses the clone's results (or other visible values where no
// result fits), and erases the op.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/clone_support.h"
#include "gevo/ir/edit_line_reader.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/repair.h"
#include "gevo/ir/visible_values.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

/// The replaced op's uses take the clone's results where types allow, else
/// another visible value (indexed once: uses may be many).
absl::Status rewireUses(const AddressIndex &index, mlir::Operation *source,
                        mlir::Operation *position, Rng &rng, Edit &edit) {
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
  return absl::OkStatus();
}

class ReplaceOperator final : public MutationOperator {
public:
  EditKind kind() const override { return EditKind::Replace; }

  absl::Status propose(const MutationScope &scope, Rng &rng,
                       Edit &edit) const override {
    const AddressIndex &index = scope.index;
    const MutationOptions &options = scope.options;
    // A pinned target is the op replaced; the source is then any op.
    MutationOptions sourceOptions = options;
    sourceOptions.target = nullptr;
    auto sources = cloneSources(index, sourceOptions);
    if (sources.size() < 2u)
      return noCandidate("op to copy");
    mlir::Operation *source = pick(sources, rng);
    std::string function = functionOf(source);
    std::vector<mlir::Operation *> targets;
    for (mlir::Operation *op : sources)
      if (op != source && functionOf(op) == function &&
          (!options.target || op == options.target))
        targets.push_back(op);
    if (targets.empty())
      return noCandidate("op to replace");
    mlir::Operation *position = pick(targets, rng);
    edit.target = *index.refOf(position);
    edit.anchor = *index.refOf(source);
    auto excluded = [&](mlir::Value value) {
      return value.getDefiningOp() == position;
    };
    GEVO_RETURN_IF_ERROR(rewireClone(
        index, source, visibleValues(index, position, excluded), rng, edit));
    return rewireUses(index, source, position, rng, edit);
  }

  bool createsOp() const override { return true; }
  bool erasesTarget() const override { return true; }
  bool allowsAnchorInTarget() const override { return true; }

  absl::StatusOr<mlir::Operation *>
  change(const Edit &, mlir::Operation *target,
         mlir::Operation *anchor) const override {
    return insertClone(anchor, target);
  }

  std::string printPart(const Edit &edit) const override {
    return printAnchor("with", edit);
  }

  absl::Status parsePart(EditLineReader &reader, Edit &edit) const override {
    return readAnchor(reader, "with", edit);
  }
};

} // namespace

template <> const MutationOperator &operatorOf<EditKind::Replace>() {
  static const ReplaceOperator op;
  return op;
}

} // namespace gevo
