//===- label_rules.h - The effect-label rules and what they look at -------===//
//
// Internal to the labeller (labels.h): the resolved view of one edit (the
// module as the edits before it left it, the ops and values the edit names,
// their roles), the helpers the rules share (label_values.cc), and the rules,
// one function each (in *_rules.cc), registered once in GEVO_LABEL_RULES in the
// order they are tried. Adding a rule: its function, and its line there.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_LABEL_RULES_H
#define ANALYSIS_LABEL_RULES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/effect_label.h"
#include "analysis/roles.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/mutation_operator.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace gevo {

class ValueFlow;
struct FlowSink;

/// Each op's role from the sinks its values reach (value_flow.h), through
/// calls and any loop form: a training loop's control is schedule, initial
/// values parameter, the entry's results prediction; what reaches an update
/// is update (it reads carried state and reaches the update through
/// elementwise ops only), gradient (the labels reach it) or forward. Ops in
/// a linalg body take their op's role; constants are left to roles.h.
class FlowRoles {
public:
  explicit FlowRoles(const ValueFlow &flow, const RoleMap &roles)
      : flow(flow), roles(roles) {}
  /// nullopt where value flow finds no sink or no single role.
  std::optional<Role> roleOf(mlir::Operation *op) const;

private:
  std::optional<Role> compute(mlir::Operation *op) const;
  const ValueFlow &flow;
  const RoleMap &roles;
  mutable llvm::DenseMap<mlir::Operation *, std::optional<Role>> cache;
};

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
  /// Where values go, through calls and any loop form (value_flow.h).
  const ValueFlow *flow = nullptr;
  /// Roles by where values go (flow_roles.cc); null for constant edits,
  /// which keep the shape-based roles.
  const FlowRoles *flowRoles = nullptr;

  /// The role by data flow when value flow finds one, else the shape-based
  /// pass's (roles.h).
  Role roleOf(mlir::Operation *op) const;
  /// How the edit's operator names it: "delete of arith.mulf".
  std::string describeEdit() const {
    return operatorFor(edit.kind).describe(edit);
  }
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
/// An integral value of modest size (|v| < 1e9) as that integer.
std::optional<int64_t> integralValue(double v);
/// "%g", integers whole: 0.01 -> "0.01", 1e6 -> "1000000".
std::string number(double v);

/// The scalar `value` computes when it folds through constants, arith
/// arithmetic and casts.
std::optional<double> foldScalar(mlir::Value value, int depth = 0);

/// An scf.for's trip count when its bounds fold.
std::optional<int64_t> foldTripCount(mlir::Operation *loop);

/// "epochs", "batches per epoch" or "loop iterations".
std::string loopName(mlir::Operation *loop, const RoleMap &roles);

/// The scalar `value` holds through arith folding and, for a function's
/// argument, the same scalar at every call site.
std::optional<double> scalarThroughCalls(mlir::ModuleOp module,
                                         mlir::Value value, int depth = 0);

/// The sinks of what `op` computes (of its linalg op when it has no
/// results); empty without value flow.
std::vector<FlowSink> sinksOf(const EditView &view, mlir::Operation *op);

/// What the edited op's values reach (value_flow.h), for a label that no
/// rule gives: "reaches the update of layer 1 weights"; empty if nothing.
std::string describeSinks(const EditView &view, std::string *path);

using LabelRule = std::optional<EffectLabel> (*)(const EditView &);

/// Every rule, in the order they are tried (the first that matches wins):
/// the one list a rule is registered in. Each is defined in a *_rules.cc
/// file (shrink_rules.cc, update_rules.cc, label_rules.cc).
#define GEVO_LABEL_RULES(RULE)                                                 \
  RULE(shrinkRule)                                                             \
  RULE(flowRule)                                                               \
  RULE(bypassRule)                                                             \
  RULE(learningRateRule)                                                       \
  RULE(parameterResetRule)                                                     \
  RULE(initializationRule)                                                     \
  RULE(scheduleRule)                                                           \
  RULE(precisionRule)                                                          \
  RULE(pruningRule)                                                            \
  RULE(stabilityRule)                                                          \
  RULE(lossRule)                                                               \
  RULE(skippedRule)                                                            \
  RULE(gradientDroppedRule)                                                    \
  RULE(deadComputationRule)                                                    \
  RULE(initialValuesRule)

#define GEVO_DECLARE_LABEL_RULE(name)                                          \
  std::optional<EffectLabel> name(const EditView &view);
GEVO_LABEL_RULES(GEVO_DECLARE_LABEL_RULE)
#undef GEVO_DECLARE_LABEL_RULE

#define GEVO_LIST_LABEL_RULE(name) name,
inline constexpr LabelRule kLabelRules[] = {
    GEVO_LABEL_RULES(GEVO_LIST_LABEL_RULE)};
#undef GEVO_LIST_LABEL_RULE

} // namespace gevo

#endif // ANALYSIS_LABEL_RULES_H
