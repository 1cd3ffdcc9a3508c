//===- rewire_operators.cc - Operand, delete and constant operators -------===//
//
// The operators that change where values flow or what a constant holds,
// without moving or cloning ops.
//
//===----------------------------------------------------------------------===//

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/ir/constant_literal.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/ir/visible_values.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace gevo {
namespace {

/// A new literal for a constant: scaled or replaced from a fixed set.
std::optional<std::string> tweakLiteral(mlir::arith::ConstantOp constant,
                                        Rng &rng) {
  mlir::Attribute value = constant.getValue();
  if (auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(value)) {
    if (!dense.isSplat())
      return std::nullopt;
    value = dense.getSplatValue<mlir::Attribute>();
  }
  double current;
  bool isFloat = false;
  if (auto f = llvm::dyn_cast<mlir::FloatAttr>(value)) {
    current = f.getValueAsDouble();
    isFloat = true;
  } else if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(value)) {
    if (i.getType().isInteger(1))
      return std::nullopt;
    current = static_cast<double>(i.getValue().getSExtValue());
  } else {
    return std::nullopt;
  }
  double next;
  if (isFloat) {
    static const double scales[] = {0.1, 0.5, 0.8, 1.25, 1.5, 2.0, 10.0, -1.0};
    static const double values[] = {0.0, 1.0, -1.0, 0.5};
    next = chance(0.6, rng) ? current * scales[rng() % 8] : values[rng() % 4];
  } else {
    // Counts (epochs, batches, sizes) move by small steps or factors.
    static const double steps[] = {1, -1, 2, -2};
    static const double scales[] = {0.5, 1.5, 2.0};
    next = chance(0.6, rng) ? current + steps[rng() % 4]
                            : std::round(current * scales[rng() % 3]);
  }
  if (next == current)
    return std::nullopt;
  return isFloat ? absl::StrFormat("%.9g", next)
                 : absl::StrFormat("%d", static_cast<int64_t>(next));
}

} // namespace

/// Sets one operand of an op to another visible value.
absl::Status proposeOperand(const MutationScope &scope, Rng &rng, Edit &edit) {
  const AddressIndex &index = scope.index;
  const MutationOptions &options = scope.options;
  auto users = candidates(index, options, [](mlir::Operation *op) {
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

/// Erases an op; each use of its results takes another visible value.
absl::Status proposeDelete(const MutationScope &scope, Rng &rng, Edit &edit) {
  const AddressIndex &index = scope.index;
  const MutationOptions &options = scope.options;
  auto targets = candidates(index, options, [](mlir::Operation *op) {
    return !op->hasTrait<mlir::OpTrait::IsTerminator>();
  });
  if (targets.empty())
    return noCandidate("op to delete");
  mlir::Operation *target = pick(targets, rng);
  edit.target = *index.refOf(target);
  auto inTarget = [&](mlir::Value value) {
    mlir::Operation *owner =
        llvm::isa<mlir::OpResult>(value)
            ? value.getDefiningOp()
            : llvm::cast<mlir::BlockArgument>(value).getOwner()->getParentOp();
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

/// Scales or replaces the value of a scalar or splat constant: floats by
/// factors or to a few fixed values, integers and indices (loop bounds and
/// steps included) by +-1, +-2 or factors 0.5, 1.5, 2; for a constant with
/// several uses, half the time at one use only (an operand edit).
absl::Status proposeConstant(const MutationScope &scope, Rng &rng, Edit &edit) {
  const AddressIndex &index = scope.index;
  const MutationOptions &options = scope.options;
  auto constants = candidates(index, options, [](mlir::Operation *op) {
    auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op);
    return constant && canHoldConstant(constant.getType());
  });
  if (constants.empty())
    return noCandidate("constant");
  auto constant = llvm::cast<mlir::arith::ConstantOp>(pick(constants, rng));
  std::optional<std::string> literal = tweakLiteral(constant, rng);
  if (!literal)
    return noCandidate("new value for the constant");
  // A constant with several uses (one learning rate for every layer's
  // update): half the time only one use takes the new value, a constant
  // materialised where it is used, so that layers can learn at their own
  // rates. That edit is an operand edit; the rest of the program keeps the
  // old value.
  llvm::SmallVector<mlir::OpOperand *> uses;
  for (mlir::OpOperand &use : constant->getUses())
    if (std::optional<OpRef> user = index.refOf(use.getOwner());
        user && passesFilters(*user, options))
      uses.push_back(&use);
  if (uses.size() >= 2 && chance(0.5, rng)) {
    mlir::OpOperand *use = uses[rng() % uses.size()];
    edit.kind = EditKind::Operand;
    edit.target = *index.refOf(use->getOwner());
    Rewire rewire;
    rewire.user = edit.target;
    rewire.operand = static_cast<int>(use->getOperandNumber());
    rewire.value.kind = ValueRef::Kind::Constant;
    rewire.value.literal = *literal;
    edit.rewires.push_back(rewire);
    return absl::OkStatus();
  }
  edit.target = *index.refOf(constant.getOperation());
  edit.literal = *literal;
  return absl::OkStatus();
}

} // namespace gevo
