//===- move_operator.cc - The move operator: put an op elsewhere ----------===//
//
// `move <op> before <anchor>`: moves an op before another op of its function;
// rewires fix the operands that no longer dominate their users.
//
//===----------------------------------------------------------------------===//

#include "gevo/ir/edit_line_reader.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/reorder_support.h"

namespace gevo {
namespace {

class MoveOperator final : public MutationOperator {
public:
  EditKind kind() const override { return EditKind::Move; }

  absl::Status propose(const MutationScope &scope, Rng &rng,
                       Edit &edit) const override {
    auto sameFunction = [](mlir::Operation *target, mlir::Operation *op) {
      return functionOf(op) == functionOf(target);
    };
    return proposeReorder(scope, rng, edit, sameFunction, *this);
  }

  absl::StatusOr<mlir::Operation *>
  change(const Edit &, mlir::Operation *target,
         mlir::Operation *anchor) const override {
    target->moveBefore(anchor);
    return nullptr;
  }

  std::string printPart(const Edit &edit) const override {
    return printAnchor("before", edit);
  }

  absl::Status parsePart(EditLineReader &reader, Edit &edit) const override {
    return readAnchor(reader, "before", edit);
  }
};

} // namespace

template <> const MutationOperator &operatorOf<EditKind::Move>() {
  static const MoveOperator op;
  return op;
}

} // namespace gevo
