//===- apply_edit.cc - Apply one recorded edit to a module ----------------===//

#include "gevo/ir/apply_edit.h"

#include "absl/strings/str_cat.h"
#include "gevo/ir/constant_literal.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/repair.h"
#include "gevo/ir/shrink.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"

namespace gevo {
namespace {

struct ResolvedRewire {
  mlir::Operation *user = nullptr; // nullptr: the new op
  const Rewire *rewire = nullptr;
  mlir::Value value; // null for NewResult / Constant
};

} // namespace

absl::Status reorderOps(EditKind kind, mlir::Operation *target,
                        mlir::Operation *anchor) {
  if (kind == EditKind::Move) {
    target->moveBefore(anchor);
  } else if (target->getNextNode() == anchor) {
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
  return absl::OkStatus();
}

absl::Status applyEdit(mlir::ModuleOp module, const Edit &edit,
                       EditOutcome *outcome, int maxFuzz) {
  EditOutcome local;
  EditOutcome &out = outcome ? *outcome : local;
  AddressIndex index(module, maxFuzz);
  auto resolveOp = [&](const OpRef &ref) -> absl::StatusOr<mlir::Operation *> {
    GEVO_ASSIGN_OR_RETURN(AddressIndex::Resolved found, index.resolve(ref));
    out.fuzz = std::max(out.fuzz, found.fuzz);
    return found.op;
  };
  GEVO_ASSIGN_OR_RETURN(mlir::Operation * target, resolveOp(edit.target));
  mlir::Operation *anchor = nullptr;
  if (hasAnchor(edit.kind)) {
    GEVO_ASSIGN_OR_RETURN(anchor, resolveOp(edit.anchor));
    if (anchor == target)
      return absl::InvalidArgumentError("the target and the anchor are one op");
    if (edit.kind != EditKind::Replace && target->isAncestor(anchor))
      return absl::InvalidArgumentError(
          "the anchor is inside the target; cannot move or copy it there");
  }
  // Resolve every rewire against the module before it changes.
  std::vector<ResolvedRewire> rewires;
  for (const Rewire &rewire : edit.rewires) {
    ResolvedRewire resolved;
    resolved.rewire = &rewire;
    if (!rewire.userIsNew) {
      GEVO_ASSIGN_OR_RETURN(resolved.user, resolveOp(rewire.user));
    } else if (edit.kind != EditKind::Copy && edit.kind != EditKind::Replace) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a ", toString(edit.kind), " edit creates no op for 'new' to name"));
    }
    if (rewire.value.kind != ValueRef::Kind::NewResult &&
        rewire.value.kind != ValueRef::Kind::Constant) {
      GEVO_ASSIGN_OR_RETURN(resolved.value,
                            index.resolve(rewire.value, &out.fuzz));
    }
    rewires.push_back(resolved);
  }

  // The structural change.
  mlir::Operation *created = nullptr;
  switch (edit.kind) {
  case EditKind::Copy:
    created = target->clone();
    anchor->getBlock()->getOperations().insert(anchor->getIterator(), created);
    break;
  case EditKind::Replace:
    created = anchor->clone();
    target->getBlock()->getOperations().insert(target->getIterator(), created);
    break;
  case EditKind::Move:
  case EditKind::Swap:
    GEVO_RETURN_IF_ERROR(reorderOps(edit.kind, target, anchor));
    break;
  case EditKind::Constant: {
    auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(target);
    if (!constant)
      return absl::InvalidArgumentError(
          absl::StrCat(toString(edit.target), " is not an arith.constant"));
    if (std::optional<std::string> problem = literalProblem(
            mlir::getElementTypeOrSelf(constant.getType()), edit.literal))
      return absl::InvalidArgumentError(
          absl::StrCat(toString(edit.target), ": ", *problem));
    mlir::TypedAttr value = constantAttr(constant.getType(), edit.literal);
    if (!value)
      return absl::InvalidArgumentError(absl::StrCat(
          toString(edit.target), " is not a scalar or splat constant"));
    constant.setValueAttr(value);
    break;
  }
  case EditKind::Shrink:
    if (edit.result < 0 ||
        edit.result >= static_cast<int>(target->getNumResults()))
      return absl::InvalidArgumentError(
          absl::StrCat(toString(edit.target), " has no result ", edit.result));
    if (absl::Status status =
            applyShrink(target->getResult(edit.result), edit.dim, edit.keep);
        !status.ok())
      return absl::Status(status.code(),
                          absl::StrCat("cannot shrink ", toString(edit.target),
                                       ":", edit.result, " dim ", edit.dim,
                                       ": ", status.message()));
    break;
  default:
    break;
  }

  // Set each recorded operand, building its repair just before the user.
  for (const ResolvedRewire &resolved : rewires) {
    const Rewire &rewire = *resolved.rewire;
    mlir::Operation *user = rewire.userIsNew ? created : resolved.user;
    std::string where =
        absl::StrCat(rewire.userIsNew ? "new" : toString(rewire.user), "[",
                     rewire.operand, "]");
    if (rewire.operand >= static_cast<int>(user->getNumOperands()))
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": the op has only ", user->getNumOperands(), " operands"));
    mlir::Type operandType = user->getOperand(rewire.operand).getType();
    mlir::OpBuilder builder(user);
    mlir::Value value = resolved.value;
    if (rewire.value.kind == ValueRef::Kind::NewResult) {
      if (!created ||
          rewire.value.index >= static_cast<int>(created->getNumResults()))
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": the new op has no result ", rewire.value.index));
      value = created->getResult(rewire.value.index);
    } else if (rewire.value.kind == ValueRef::Kind::Constant) {
      if (std::optional<std::string> problem = literalProblem(
              mlir::getElementTypeOrSelf(operandType), rewire.value.literal))
        return absl::InvalidArgumentError(absl::StrCat(where, ": ", *problem));
      value = buildConstant(builder, user->getLoc(), operandType,
                            rewire.value.literal);
      if (!value)
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": no constant of the operand's type"));
    }
    std::optional<Repair> plan = planRepair(value.getType(), operandType);
    if (!plan)
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": no repair turns the value into the operand's "
                              "type"));
    if (!fitsPlan(rewire.repair, *plan)) {
      out.repairMismatch = {where, *plan, rewire.repair};
      return absl::FailedPreconditionError(absl::StrCat(
          where, ": the recorded repair is not the one the types need (a type "
                 "changed since the patch was made)"));
    }
    absl::StatusOr<mlir::Value> repaired =
        buildRepair(builder, user->getLoc(), value, rewire.repair, operandType);
    if (!repaired.ok())
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", repaired.status().message()));
    user->setOperand(rewire.operand, *repaired);
  }

  if (edit.kind == EditKind::Delete || edit.kind == EditKind::Replace) {
    if (!target->use_empty())
      return absl::FailedPreconditionError(
          absl::StrCat(toString(edit.target),
                       ": results still used after the edit's rewires"));
    target->erase();
  }

  // Verify, collecting the first diagnostic for the message.
  std::string diagnostic;
  mlir::ScopedDiagnosticHandler handler(module.getContext(),
                                        [&](mlir::Diagnostic &diag) {
                                          if (diagnostic.empty())
                                            diagnostic = diag.str();
                                          return mlir::success();
                                        });
  if (mlir::failed(mlir::verify(module)))
    return absl::FailedPreconditionError(
        absl::StrCat("the edited module does not verify: ", diagnostic));
  return absl::OkStatus();
}

} // namespace gevo
