//===- update_rules.cc - Label rules for what the weight updates do -------===//
//
// The rules about the updates (label_rules.h lists them all): a learning-rate
// change, through the rate itself or the loss gradient's scale, and a
// parameter that restarts from a constant at every step.
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/label_rules.h"
#include "analysis/value_flow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace gevo {

namespace {

/// The role of `op`, or of the nearest op around it that has one (ops in a
/// linalg body take their generic's role).
Role enclosingRole(const EditView &view, mlir::Operation *op) {
  for (; op; op = op->getParentOp())
    if (Role role = view.roleOf(op); role != Role::Plumbing)
      return role;
  return Role::Plumbing;
}

/// The weight updates what `op` computes reaches, following results through
/// their users.
int updatesReached(const EditView &view, mlir::Operation *op) {
  llvm::SmallVector<mlir::Operation *> work = {op};
  llvm::SmallPtrSet<mlir::Operation *, 32> seen = {op};
  int updates = 0;
  while (!work.empty() && seen.size() < 512) {
    mlir::Operation *next = work.pop_back_val();
    if (next != op && view.roleOf(next) == Role::Update) {
      ++updates; // the update's own result is the next step's parameter
      continue;
    }
    for (mlir::Operation *user : next->getUsers())
      if (seen.insert(user).second)
        work.push_back(user);
  }
  return updates;
}

/// Whether what `op` (or the linalg op around it) computes reaches a weight
/// update, following results through their users.
bool feedsUpdate(const EditView &view, mlir::Operation *op) {
  while (llvm::isa_and_nonnull<mlir::linalg::LinalgOp>(op->getParentOp()))
    op = op->getParentOp();
  return view.roleOf(op) == Role::Update || updatesReached(view, op) > 0;
}

/// A constant that only scales the loss gradient (the mean's divisor, a
/// factor) gets another value: every weight update scales with it, as with
/// the learning rate.
std::optional<EffectLabel> gradientScaleChange(const EditView &view) {
  if (view.edit.kind != EditKind::Constant || !view.target ||
      !isFloatScalar(view.target->getResult(0)))
    return std::nullopt;
  mlir::Value value = view.target->getResult(0);
  std::optional<double> old = constantValue(value);
  std::optional<double> next = literalValue(view.edit.literal);
  if (!old || !next || *old == 0 || *next == 0 || value.use_empty())
    return std::nullopt;
  bool divides = false, multiplies = false;
  for (mlir::OpOperand &use : value.getUses()) {
    mlir::Operation *user = use.getOwner();
    Role role = enclosingRole(view, user);
    if ((role != Role::Gradient && role != Role::Loss) ||
        !feedsUpdate(view, user))
      return std::nullopt;
    if (llvm::isa<mlir::arith::DivFOp>(user) && use.getOperandNumber() == 1)
      divides = true;
    else if (llvm::isa<mlir::arith::MulFOp>(user))
      multiplies = true;
    else
      return std::nullopt;
  }
  if (divides == multiplies)
    return std::nullopt;
  double factor = divides ? *old / *next : *next / *old;
  EffectLabel label = makeLabel(
      "learning-rate change",
      absl::StrFormat("learning-rate change x%g (the loss gradient's %s %s "
                      "-> %s)",
                      factor, divides ? "divisor" : "factor", number(*old),
                      number(*next)),
      "the constant only scales the loss gradient, which every weight "
      "update follows");
  label.factor = factor;
  return label;
}

} // namespace

/// The scale of a weight update changes: the learning-rate constant gets
/// another value, or an update op takes another constant in its place.
std::optional<EffectLabel> learningRateRule(const EditView &view) {
  if (view.edit.kind == EditKind::Constant && view.target &&
      view.roleOf(view.target) == Role::Update &&
      isFloatScalar(view.target->getResult(0))) {
    std::optional<double> old = constantValue(view.target->getResult(0));
    std::optional<double> next = literalValue(view.edit.literal);
    if (old && next && *old != 0) {
      EffectLabel label =
          makeLabel("learning-rate change",
                    absl::StrFormat("learning-rate change x%g (%s -> %s)",
                                    *next / *old, number(*old), number(*next)),
                    "the constant is used only by the weight updates");
      label.factor = *next / *old;
      return label;
    }
  }
  if (std::optional<EffectLabel> label = gradientScaleChange(view))
    return label;
  for (const ResolvedRewire &r : view.rewires) {
    if (!r.user || view.roleOf(r.user) != Role::Update ||
        !isFloatScalar(r.oldValue))
      continue;
    mlir::Operation *producer = r.oldValue.getDefiningOp();
    std::optional<double> old = constantValue(r.oldValue);
    std::optional<double> next = newConstant(r);
    if (producer && view.roleOf(producer) == Role::Update && old && next &&
        *old != 0) {
      EffectLabel label = makeLabel(
          "learning-rate change",
          absl::StrFormat("learning-rate change x%g (%s -> %s)", *next / *old,
                          number(*old), number(*next)),
          "a weight update takes another constant in place of the learning "
          "rate");
      label.factor = *next / *old;
      return label;
    }
  }
  return std::nullopt;
}

/// A weight update takes a constant where it read the parameter's previous
/// value: the parameter restarts from that constant at every step.
std::optional<EffectLabel> parameterResetRule(const EditView &view) {
  for (const ResolvedRewire &r : view.rewires) {
    if (!r.user || view.roleOf(r.user) != Role::Update)
      continue;
    auto argument = llvm::dyn_cast_or_null<mlir::BlockArgument>(r.oldValue);
    if (!argument ||
        !llvm::isa<mlir::linalg::GenericOp>(argument.getOwner()->getParentOp()))
      continue;
    auto generic =
        llvm::cast<mlir::linalg::GenericOp>(argument.getOwner()->getParentOp());
    // The body argument of an input that is a loop-carried parameter.
    if (argument.getArgNumber() >= generic.getNumDpsInputs())
      continue;
    mlir::Value input = generic.getDpsInputs()[argument.getArgNumber()];
    if (!llvm::isa<mlir::BlockArgument>(input))
      continue; // not an iter_arg of the training loop
    std::optional<double> constant = newConstant(r);
    if (!constant)
      continue;
    return makeLabel(
        "parameter reset",
        absl::StrFormat("parameter reset: a weight update starts from "
                        "%s instead of the parameter's previous value",
                        number(*constant)),
        "the update's operand was the loop-carried parameter");
  }
  return std::nullopt;
}

std::optional<EffectLabel> gradientDroppedRule(const EditView &view) {
  // A backward-pass op deleted or replaced: what it computed, e.g. the
  // error signal a matmul sends back to an earlier layer, is gone.
  mlir::Operation *dropped = nullptr;
  if ((view.edit.kind == EditKind::Delete ||
       view.edit.kind == EditKind::Replace) &&
      view.target && view.roleOf(view.target) == Role::Gradient &&
      computesValues(view.target))
    dropped = view.target;
  // Or a backward-pass op reads a fill or a constant in place of a value
  // the backward pass computed.
  for (const ResolvedRewire &r : view.rewires) {
    if (dropped)
      break;
    if (!r.user || !r.oldValue || view.roleOf(r.user) != Role::Gradient)
      continue;
    mlir::Operation *was = r.oldValue.getDefiningOp();
    mlir::Operation *now = r.newValue ? r.newValue.getDefiningOp() : nullptr;
    bool constantNow =
        !r.newValue ||
        (now && llvm::isa<mlir::linalg::FillOp, mlir::arith::ConstantOp>(now));
    if (was && computesValues(was) && view.roleOf(was) == Role::Gradient &&
        constantNow)
      dropped = was;
  }
  if (!dropped)
    return std::nullopt;
  int updates = updatesReached(view, dropped);
  // By data flow, through calls: the parameters whose updates it reached.
  std::vector<std::string> names;
  for (const FlowSink &sink : sinksOf(view, dropped))
    if (sink.kind == FlowSink::Kind::Update) {
      std::string name = view.flow->parameterName(sink.loop, sink.position);
      if (!llvm::is_contained(names, name))
        names.push_back(name);
    }
  if (!names.empty())
    updates = static_cast<int>(names.size());
  if (updates == 0)
    return std::nullopt;
  return makeLabel(
      "gradient dropped",
      absl::StrFormat("gradient dropped: %s of the backward pass no longer "
                      "reaches %d weight update%s%s, whose parameters keep "
                      "more of their initial values",
                      dropped->getName().getStringRef().str(), updates,
                      updates == 1 ? "" : "s",
                      names.empty() ? ""
                                    : " (" + absl::StrJoin(names, ", ") + ")"),
      absl::StrFormat("%s (gradient); %d update ops downstream",
                      view.describeEdit(), updates));
}

} // namespace gevo
