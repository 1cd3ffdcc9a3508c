//===- operand_operator.cc - The operand operator: rewire one operand -----===//
//
// `operand <op>`: sets one operand of an op to another visible value; the
// edit is its one rewire.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

class OperandOperator final : public MutationOperator {
public:
  EditKind kind() const override { return EditKind::Operand; }

  absl::Status propose(const MutationScope &scope, Rng &rng,
                       Edit &edit) const override {
    const AddressIndex &index = scope.index;
    auto users = candidates(index, scope.options, [](mlir::Operation *op) {
      return op->getNumOperands() > 0;
    });
    if (users.empty())
      return noCandidate("op with operands");
    mlir::Operation *user = pick(users, rng);
    edit.target = *index.refOf(user);
    Rewire rewire;
    rewire.user = edit.target;
    rewire.operand = static_cast<int>(rng() % user->getNumOperands());
    mlir::Value current = user->getOperand(rewire.operand);
    GEVO_RETURN_IF_ERROR(chooseValue(index,
                                     visibleValues(index, user, excludeNothing),
                                     current.getType(), current, rng, rewire));
    edit.rewires.push_back(rewire);
    return absl::OkStatus();
  }

  absl::StatusOr<mlir::Operation *> change(const Edit &, mlir::Operation *,
                                           mlir::Operation *) const override {
    return nullptr; // only rewires
  }
};

} // namespace

template <> const MutationOperator &operatorOf<EditKind::Operand>() {
  static const OperandOperator op;
  return op;
}

} // namespace gevo
