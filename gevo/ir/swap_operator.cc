//===- swap_operator.cc - The swap operator: exchange two ops -------------===//
//
// `swap <op> and <other>`: exchanges two movable ops of one block; rewires
// fix the operands that no longer dominate their users.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/edit_line_reader.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/reorder_support.h"

namespace gevo {
namespace {

class SwapOperator final : public MutationOperator {
public:
  EditKind kind() const override { return EditKind::Swap; }

  absl::Status propose(const MutationScope &scope, Rng &rng,
                       Edit &edit) const override {
    auto sameBlock = [](mlir::Operation *target, mlir::Operation *op) {
      return isMovable(op) && op->getBlock() == target->getBlock();
    };
    return proposeReorder(scope, rng, edit, sameBlock, *this);
  }

  absl::StatusOr<mlir::Operation *>
  change(const Edit &, mlir::Operation *target,
         mlir::Operation *anchor) const override {
    if (target->getNextNode() == anchor) {
      anchor->moveBefore(target);
    } else if (anchor->getNextNode() == target) {
      target->moveBefore(anchor);
    } else {
      mlir::Operation *afterTarget = target->getNextNode();
      if (!afterTarget)
        return absl::InvalidArgumentError("cannot swap a block terminator");
      target->moveBefore(anchor);
      anchor->moveBefore(afterTarget);
    }
    return nullptr;
  }

  std::string printPart(const Edit &edit) const override {
    return printAnchor("and", edit);
  }

  absl::Status parsePart(EditLineReader &reader, Edit &edit) const override {
    return readAnchor(reader, "and", edit);
  }
};

} // namespace

template <> const MutationOperator &operatorOf<EditKind::Swap>() {
  static const SwapOperator op;
  return op;
}

} // namespace gevo
