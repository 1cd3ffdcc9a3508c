//===- label_rules.h - The effect-label rules and what they look at -------===//
//
// Internal to the labeller: the resolved view of one edit (the module as the
// edits before it left it, the ops and values the edit names, their roles)
// and the rules, one function each, in the order they are tried.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_LABEL_RULES_H
#define ANALYSIS_LABEL_RULES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/labels.h"
#include "analysis/roles.h"
#include "gevo/ir/op_address.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace gevo {

/// One rewired operand, resolved in the module before the edit.
struct ResolvedRewire {
  const Rewire *rewire = nullptr;
  mlir::Operation *user = nullptr; // null when the user is the new op
  mlir::Value oldValue;            // the operand before (null if unknown)
  mlir::Value newValue;            // null for new:k and const(...)
  /// The operand's value after the edit when it folds to a scalar constant
  /// (through arith ops and casts), e.g. a replaced constant's new value.
  std::optional<double> constantAfter;
};

/// A training loop whose trip count the edit changes.
struct TripChange {
  mlir::Operation *loop = nullptr; // in the module before the edit
  int64_t before = 0, after = 0;
};

struct EditView {
  const Edit &edit;
  mlir::ModuleOp before; // the module before this edit
  const RoleMap &roles;
  const EditEvidence &evidence;
  mlir::Operation *target = nullptr;
  mlir::Operation *anchor = nullptr;
  std::vector<ResolvedRewire> rewires;
  std::vector<TripChange> tripChanges;

  Role roleOf(mlir::Operation *op) const { return roles.roleOf(op); }
};

// Helpers the rules share (label_values.cc).

/// A label of `kind` with its summary and the facts it rests on.
EffectLabel makeLabel(const char *kind, std::string summary, std::string facts);
/// The scalar a float or integer constant (or a splat of one) holds.
std::optional<double> constantValue(mlir::Value value);
/// A linalg op that computes values from its inputs (not a fill).
bool computesValues(mlir::Operation *op);
/// A patch literal ("0.5", "-2") as a number.
std::optional<double> literalValue(const std::string &literal);
/// The value an operand takes after the rewire, when it is a constant.
std::optional<double> newConstant(const ResolvedRewire &r);
bool isFloatScalar(mlir::Value value);
int64_t elementsOf(llvm::ArrayRef<int64_t> shape);
/// "%g".
std::string number(double v);

/// The scalar `value` computes when it folds through constants, arith
/// arithmetic and casts.
std::optional<double> foldScalar(mlir::Value value, int depth = 0);

/// An scf.for's trip count when its bounds fold.
std::optional<int64_t> foldTripCount(mlir::Operation *loop);

/// "epochs", "batches per epoch" or "loop iterations".
std::string loopName(mlir::Operation *loop, const RoleMap &roles);

using LabelRule = std::optional<EffectLabel> (*)(const EditView &);

// In the order they are tried (shrink_rules.cc, update_rules.cc,
// label_rules.cc).
std::optional<EffectLabel> learningRateRule(const EditView &view);
std::optional<EffectLabel> initializationRule(const EditView &view);
std::optional<EffectLabel> parameterResetRule(const EditView &view);
std::optional<EffectLabel> scheduleRule(const EditView &view);
std::optional<EffectLabel> precisionRule(const EditView &view);
std::optional<EffectLabel> pruningRule(const EditView &view);
std::optional<EffectLabel> stabilityRule(const EditView &view);
std::optional<EffectLabel> lossRule(const EditView &view);
std::optional<EffectLabel> skippedRule(const EditView &view);
std::optional<EffectLabel> gradientDroppedRule(const EditView &view);
std::optional<EffectLabel> deadComputationRule(const EditView &view);
std::optional<EffectLabel> initialValuesRule(const EditView &view);
std::optional<EffectLabel> shrinkRule(const EditView &view);

inline constexpr LabelRule kLabelRules[] = {
    shrinkRule,         learningRateRule,    parameterResetRule,
    initializationRule, scheduleRule,        precisionRule,
    pruningRule,        stabilityRule,       lossRule,
    skippedRule,        gradientDroppedRule, deadComputationRule,
    initialValuesRule};

} // namespace gevo

#endif // ANALYSIS_LABEL_RULES_H
