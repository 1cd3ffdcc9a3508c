//===- delete_operator.cc - The delete operator: erase an op --------------===//
//
// `delete <op>`: erases an op; each use of its results takes another value
// visible there (a rewire each).
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/ir/visible_values.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

class DeleteOperator final : public MutationOperator {
public:
  EditKind kind() const override { return EditKind::Delete; }

  absl::Status propose(const MutationScope &scope, Rng &rng,
                       Edit &edit) const override {
    const AddressIndex &index = scope.index;
    auto targets = candidates(index, scope.options, [](mlir::Operation *op) {
      return !op->hasTrait<mlir::OpTrait::IsTerminator>();
    });
    if (targets.empty())
      return noCandidate("op to delete");
    mlir::Operation *target = pick(targets, rng);
    edit.target = *index.refOf(target);
    auto inTarget = [&](mlir::Value value) {
      mlir::Operation *owner = llvm::isa<mlir::OpResult>(value)
                                   ? value.getDefiningOp()
                                   : llvm::cast<mlir::BlockArgument>(value)
                                         .getOwner()
                                         ->getParentOp();
      return owner && target->isAncestor(owner);
    };
    // A value may have thousands of uses: index what they see once.
    VisibleValueIndex visible(index, inTarget);
    for (mlir::Value result : target->getResults())
      for (mlir::OpOperand &use : result.getUses()) {
        Rewire rewire;
        std::optional<OpRef> user = index.refOf(use.getOwner());
        if (!user)
          return noCandidate("address for a use");
        rewire.user = *user;
        rewire.operand = static_cast<int>(use.getOperandNumber());
        GEVO_RETURN_IF_ERROR(
            visible.choose(use.getOwner(), result.getType(), rng, rewire));
        edit.rewires.push_back(rewire);
      }
    return absl::OkStatus();
  }

  bool erasesTarget() const override { return true; }

  absl::StatusOr<mlir::Operation *> change(const Edit &, mlir::Operation *,
                                           mlir::Operation *) const override {
    return nullptr; // the rewires move the uses; then the target is erased
  }
};

} // namespace

template <> const MutationOperator &operatorOf<EditKind::Delete>() {
  static const DeleteOperator op;
  return op;
}

} // namespace gevo
