//===- constant_operator.cc - The constant operator: retune a value -------===//
//
// `constant <op> = <number>`: sets a scalar or splat arith.constant's value.
// Floats are scaled or set to a few fixed values, integers and indices (loop
// bounds and steps included) move by +-1, +-2 or factors 0.5, 1.5, 2; for a
// constant with several uses, half the time only one use takes the new
// value (an operand edit). Retuning moves a value by a small factor (an
// integer by one).
//
//===----------------------------------------------------------------------===//

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/ir/constant_literal.h"
#include "gevo/ir/edit_line_reader.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

namespace gevo {
namespace {

/// The scalar a constant holds (a splat's element), if it is a number the
/// operator may tweak; `isFloat` says which kind.
std::optional<double> tweakableValue(mlir::arith::ConstantOp constant,
                                     bool &isFloat) {
  mlir::Attribute value = constant.getValue();
  if (auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(value)) {
    if (!dense.isSplat())
      return std::nullopt;
    value = dense.getSplatValue<mlir::Attribute>();
  }
  isFloat = false;
  if (auto f = llvm::dyn_cast<mlir::FloatAttr>(value)) {
    isFloat = true;
    return f.getValueAsDouble();
  }
  if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(value)) {
    if (i.getType().isInteger(1))
      return std::nullopt;
    return static_cast<double>(i.getValue().getSExtValue());
  }
  return std::nullopt;
}

/// A new literal for a constant: scaled or replaced from a fixed set.
std::optional<std::string> tweakLiteral(mlir::arith::ConstantOp constant,
                                        Rng &rng) {
  bool isFloat = false;
  std::optional<double> value = tweakableValue(constant, isFloat);
  if (!value)
    return std::nullopt;
  double current = *value, next;
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

/// The uses of `constant` whose users have an address the filters allow.
llvm::SmallVector<mlir::OpOperand *> filteredUses(const MutationScope &scope,
                                                  mlir::Operation *constant) {
  llvm::SmallVector<mlir::OpOperand *> uses;
  for (mlir::OpOperand &use : constant->getUses())
    if (std::optional<OpRef> user = scope.index.refOf(use.getOwner());
        user && passesFilters(*user, scope.options))
      uses.push_back(&use);
  return uses;
}

class ConstantOperator final : public MutationOperator {
public:
  EditKind kind() const override { return EditKind::Constant; }

  absl::Status propose(const MutationScope &scope, Rng &rng,
                       Edit &edit) const override {
    const AddressIndex &index = scope.index;
    auto constants = candidates(index, scope.options, [](mlir::Operation *op) {
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
    llvm::SmallVector<mlir::OpOperand *> uses = filteredUses(scope, constant);
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

  bool isTunable() const override { return true; }

  /// The value moved a little: a float by a factor of 1.25 up or down, an
  /// integer by one.
  absl::Status retune(const MutationScope &scope, Rng &rng,
                      Edit &edit) const override {
    absl::StatusOr<AddressIndex::Resolved> target =
        scope.index.resolve(edit.target);
    if (!target.ok())
      return target.status();
    auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(target->op);
    double value = 0;
    if (!constant || !absl::SimpleAtod(edit.literal, &value))
      return noCandidate("constant to retune");
    bool up = chance(0.5, rng);
    if (llvm::isa<mlir::FloatType>(
            mlir::getElementTypeOrSelf(constant.getType()))) {
      if (value == 0)
        return noCandidate("non-zero value to retune");
      edit.literal = absl::StrFormat("%.9g", up ? value * 1.25 : value / 1.25);
    } else {
      edit.literal =
          absl::StrFormat("%d", static_cast<int64_t>(value) + (up ? 1 : -1));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<mlir::Operation *> change(const Edit &edit,
                                           mlir::Operation *target,
                                           mlir::Operation *) const override {
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
    return nullptr;
  }

  std::string printPart(const Edit &edit) const override {
    return absl::StrCat(" = ", edit.literal);
  }

  absl::Status parsePart(EditLineReader &reader, Edit &edit) const override {
    GEVO_RETURN_IF_ERROR(reader.expect("="));
    GEVO_ASSIGN_OR_RETURN(edit.literal, reader.literal());
    return absl::OkStatus();
  }
};

} // namespace

template <> const MutationOperator &operatorOf<EditKind::Constant>() {
  static const ConstantOperator op;
  return op;
}

} // namespace gevo
