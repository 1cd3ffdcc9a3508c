//===- apply_edit.cc - Apply one recorded edit to a module ----------------===//

#include "gevo/ir/apply_edit.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "gevo/ir/constant_literal.h"
#include "gevo/ir/edit_safety_check.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/repair.h"
#include "gevo/support/status_macros.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
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

/// The ops and values an edit names, resolved in the module before it.
struct ResolvedEdit {
  mlir::Operation *target = nullptr;
  mlir::Operation *anchor = nullptr; // null for an operator without one
  std::vector<ResolvedRewire> rewires;
};

/// Resolves addresses in the module before the edit, keeping the largest
/// fuzz in `out`.
class Resolver {
public:
  Resolver(mlir::ModuleOp module, int maxFuzz, const AddressIndex *given,
           EditOutcome &out)
      : out(out) {
    if (!given)
      own.emplace(module, maxFuzz);
    index = given ? given : &*own;
  }

  absl::StatusOr<mlir::Operation *> op(const OpRef &ref) {
    GEVO_ASSIGN_OR_RETURN(AddressIndex::Resolved found, index->resolve(ref));
    out.fuzz = std::max(out.fuzz, found.fuzz);
    return found.op;
  }

  absl::StatusOr<mlir::Value> value(const ValueRef &ref) {
    return index->resolve(ref, &out.fuzz);
  }

private:
  std::optional<AddressIndex> own;
  const AddressIndex *index = nullptr;
  EditOutcome &out;
};

/// The target and, for an anchored edit, the anchor.
absl::Status resolveSites(Resolver &resolver, const Edit &edit,
                          const MutationOperator &op, ResolvedEdit &sites) {
  GEVO_ASSIGN_OR_RETURN(sites.target, resolver.op(edit.target));
  if (!hasAnchor(edit.kind))
    return absl::OkStatus();
  GEVO_ASSIGN_OR_RETURN(sites.anchor, resolver.op(edit.anchor));
  if (sites.anchor == sites.target)
    return absl::InvalidArgumentError("the target and the anchor are one op");
  if (!op.allowsAnchorInTarget() && sites.target->isAncestor(sites.anchor))
    return absl::InvalidArgumentError(
        "the anchor is inside the target; cannot move or copy it there");
  return absl::OkStatus();
}

/// Every rewire's user and value, before the module changes.
absl::Status resolveRewires(Resolver &resolver, const Edit &edit,
                            const MutationOperator &op, ResolvedEdit &sites) {
  for (const Rewire &rewire : edit.rewires) {
    ResolvedRewire resolved;
    resolved.rewire = &rewire;
    if (!rewire.userIsNew) {
      GEVO_ASSIGN_OR_RETURN(resolved.user, resolver.op(rewire.user));
    } else if (!op.createsOp()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a ", toString(edit.kind), " edit creates no op for 'new' to name"));
    }
    if (rewire.value.kind != ValueRef::Kind::NewResult &&
        rewire.value.kind != ValueRef::Kind::Constant) {
      GEVO_ASSIGN_OR_RETURN(resolved.value, resolver.value(rewire.value));
    }
    sites.rewires.push_back(resolved);
  }
  return absl::OkStatus();
}

/// The value a rewire names: resolved before the edit, a result of the op
/// it created, or a constant built before `user`.
absl::StatusOr<mlir::Value> rewireValue(const ResolvedRewire &resolved,
                                        mlir::Operation *created,
                                        mlir::Operation *user,
                                        mlir::OpBuilder &builder,
                                        const std::string &where) {
  const ValueRef &ref = resolved.rewire->value;
  if (ref.kind == ValueRef::Kind::NewResult) {
    if (!created || ref.index >= static_cast<int>(created->getNumResults()))
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": the new op has no result ", ref.index));
    return created->getResult(ref.index);
  }
  if (ref.kind != ValueRef::Kind::Constant)
    return resolved.value;
  mlir::Type operandType = user->getOperand(resolved.rewire->operand).getType();
  if (std::optional<std::string> problem =
          literalProblem(mlir::getElementTypeOrSelf(operandType), ref.literal))
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", *problem));
  mlir::Value value =
      buildConstant(builder, user->getLoc(), operandType, ref.literal);
  if (!value)
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": no constant of the operand's type"));
  return value;
}

/// Sets one recorded operand, building its repair just before the user.
absl::Status setOperand(const ResolvedRewire &resolved,
                        mlir::Operation *created, EditOutcome &out) {
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
  GEVO_ASSIGN_OR_RETURN(mlir::Value value,
                        rewireValue(resolved, created, user, builder, where));
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
  return absl::OkStatus();
}

/// Erases the target whose uses the rewires moved elsewhere.
absl::Status eraseTarget(const Edit &edit, mlir::Operation *target) {
  if (!target->use_empty())
    return absl::FailedPreconditionError(
        absl::StrCat(toString(edit.target),
                     ": results still used after the edit's rewires"));
  target->erase();
  return absl::OkStatus();
}

/// Verifies, collecting the first diagnostic for the message.
absl::Status verifyEdited(mlir::ModuleOp module) {
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

} // namespace

absl::Status applyEdit(mlir::ModuleOp module, const Edit &edit,
                       EditOutcome *outcome, int maxFuzz,
                       const SafetyOptions &safety, const AddressIndex *index,
                       const ModuleBeforeEdit *before) {
  EditOutcome local;
  EditOutcome &out = outcome ? *outcome : local;
  const MutationOperator &op = operatorFor(edit.kind);
  Resolver resolver(module, maxFuzz, index, out);
  ResolvedEdit sites;
  GEVO_RETURN_IF_ERROR(resolveSites(resolver, edit, op, sites));
  GEVO_RETURN_IF_ERROR(resolveRewires(resolver, edit, op, sites));
  std::optional<EditSafetyCheck> check;
  if (safety.check && before)
    check.emplace(module, *before, safety);
  else if (safety.check)
    check.emplace(module, safety);
  GEVO_ASSIGN_OR_RETURN(mlir::Operation * created,
                        op.change(edit, sites.target, sites.anchor));
  for (const ResolvedRewire &resolved : sites.rewires)
    GEVO_RETURN_IF_ERROR(setOperand(resolved, created, out));
  if (op.erasesTarget())
    GEVO_RETURN_IF_ERROR(eraseTarget(edit, sites.target));
  GEVO_RETURN_IF_ERROR(verifyEdited(module));
  return check ? check->check(&out.unproven) : absl::OkStatus();
}

} // namespace gevo
