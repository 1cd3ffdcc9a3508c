//===- label_rules.h - The effect-label rules and what they look at -------===//
//
// Internal to the labeller: the resolved view of one edit (the module as the
// edits before it left it, the ops and values the edit names, their roles)
// and the rules, one function each, in the order they are tried.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_LABEL_RULES_H
#define ANALYSIS_LABEL_RULES_H

#include <optional>
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
};

struct EditView {
  const Edit &edit;
  mlir::ModuleOp before; // the module before this edit
  const RoleMap &roles;
  const EditEvidence &evidence;
  mlir::Operation *target = nullptr;
  mlir::Operation *anchor = nullptr;
  std::vector<ResolvedRewire> rewires;

  Role roleOf(mlir::Operation *op) const { return roles.roleOf(op); }
};

using LabelRule = std::optional<EffectLabel> (*)(const EditView &);

// In the order they are tried (label_rules.cc).
std::optional<EffectLabel> learningRateRule(const EditView &view);
std::optional<EffectLabel> initializationRule(const EditView &view);
std::optional<EffectLabel> scheduleRule(const EditView &view);
std::optional<EffectLabel> precisionRule(const EditView &view);
std::optional<EffectLabel> pruningRule(const EditView &view);
std::optional<EffectLabel> stabilityRule(const EditView &view);
std::optional<EffectLabel> skippedRule(const EditView &view);
std::optional<EffectLabel> deadComputationRule(const EditView &view);

inline constexpr LabelRule kLabelRules[] = {
    learningRateRule, initializationRule, scheduleRule, precisionRule,
    pruningRule,      stabilityRule,      skippedRule,  deadComputationRule};

} // namespace gevo

#endif // ANALYSIS_LABEL_RULES_H
