//===- label_rules.cc - The effect-label rules, one function each ---------===//

#include "analysis/label_rules.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/value_flow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "replay/repair_syntax.h"

namespace gevo {

/// A constant that only initialises parameters gets another value: the
/// initial weights are scaled (or shifted).
std::optional<EffectLabel> initializationRule(const EditView &view) {
  if (view.edit.kind != EditKind::Constant || !view.target ||
      view.roleOf(view.target) != Role::Parameter ||
      !isFloatScalar(view.target->getResult(0)))
    return std::nullopt;
  std::optional<double> old = constantValue(view.target->getResult(0));
  std::optional<double> next = literalValue(view.edit.literal);
  if (!old || !next || *old == 0)
    return std::nullopt;
  EffectLabel label = makeLabel(
      "initialisation change",
      absl::StrFormat("initialisation change x%g (%s -> %s)", *next / *old,
                      number(*old), number(*next)),
      "the constant is used only to compute initial parameter values");
  label.factor = *next / *old;
  return label;
}

/// Epochs, batches or another training loop's trip count change (whatever
/// the edit: a constant, a rewired bound, a replaced or deleted one).
std::optional<EffectLabel> scheduleRule(const EditView &view) {
  for (const TripChange &change : view.tripChanges) {
    EffectLabel label =
        makeLabel("training schedule change",
                  absl::StrFormat("training schedule change: %s %d -> %d",
                                  loopName(change.loop, view.roles),
                                  change.before, change.after),
                  "the trip count of a training loop changes");
    label.factor =
        change.before ? static_cast<double>(change.after) / change.before : 0;
    return label;
  }
  // A bound, step or condition of a training loop changes in a way that does
  // not fold to a trip count (a value cast into the bound, a while loop's
  // condition): still a schedule change.
  for (const ResolvedRewire &r : view.rewires) {
    if (!r.user)
      continue;
    bool bound = llvm::isa<mlir::scf::ForOp>(r.user) && r.rewire->operand < 3;
    bool condition =
        llvm::isa<mlir::scf::ConditionOp>(r.user) && r.rewire->operand == 0;
    mlir::Operation *loop = condition ? r.user->getParentOp()
                            : bound   ? r.user
                                      : nullptr;
    if (!loop || !(view.roles.isTrainingLoop(loop) ||
                   llvm::isa<mlir::scf::WhileOp>(loop)))
      continue;
    std::optional<int64_t> was = foldTripCount(loop);
    static const char *const kOperands[] = {"lower bound", "upper bound",
                                            "step"};
    std::string what =
        condition ? std::string("condition") : kOperands[r.rewire->operand];
    return makeLabel(
        "training schedule change",
        absl::StrFormat("training schedule change: the %s of %s takes "
                        "another value (trip count %s -> not computable)",
                        what, loopName(loop, view.roles),
                        was ? absl::StrCat(*was) : std::string("?")),
        absl::StrCat("rewires the ", what, " of ", r.rewire->user.opName));
  }
  return std::nullopt;
}

/// Values cross a type boundary: a repair casts them to another element
/// type.
std::optional<EffectLabel> precisionRule(const EditView &view) {
  for (const ResolvedRewire &r : view.rewires)
    if (hasStep(r.rewire->repair, RepairStep::Kind::Cast) && r.newValue &&
        r.oldValue) {
      auto elementOf = [](mlir::Type t) {
        if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(t))
          return shaped.getElementType();
        return t;
      };
      std::string from, to;
      llvm::raw_string_ostream fromOs(from), toOs(to);
      mlir::Type fromType = elementOf(r.newValue.getType()),
                 toType = elementOf(r.oldValue.getType());
      if (fromType == toType)
        continue; // a shape cast, not a precision one
      fromType.print(fromOs);
      toType.print(toOs);
      return makeLabel("precision change",
                       absl::StrCat("precision change: ", r.rewire->user.opName,
                                    " takes ", fromOs.str(), " values cast to ",
                                    toOs.str()),
                       absl::StrCat("repair ", printRepair(r.rewire->repair)));
    }
  return std::nullopt;
}

/// Part of an operand of a forward, prediction or update op is zero from
/// now on: the value wired in is smaller and padded with zeros, or a zero
/// constant takes its place.
std::optional<EffectLabel> pruningRule(const EditView &view) {
  for (const ResolvedRewire &r : view.rewires) {
    if (!r.user || !r.oldValue)
      continue;
    Role role = view.roleOf(r.user);
    if (role != Role::Forward && role != Role::Prediction &&
        role != Role::Update)
      continue;
    auto operandType = llvm::dyn_cast<mlir::ShapedType>(r.oldValue.getType());
    if (!operandType || !operandType.hasStaticShape())
      continue;
    int64_t total = operandType.getNumElements();
    int64_t pruned = 0;
    std::optional<double> constant = newConstant(r);
    if (constant && *constant == 0) {
      pruned = total;
    } else if (hasStep(r.rewire->repair, RepairStep::Kind::Pad) && r.newValue) {
      auto valueType = llvm::dyn_cast<mlir::ShapedType>(r.newValue.getType());
      if (!valueType || !valueType.hasStaticShape())
        continue;
      std::vector<int64_t> shape(valueType.getShape().begin(),
                                 valueType.getShape().end());
      for (const RepairStep &step : r.rewire->repair) {
        if (step.kind == RepairStep::Kind::Crop)
          shape = step.shape;
        else if (step.kind == RepairStep::Kind::Pad) {
          pruned += elementsOf(step.shape) - elementsOf(shape);
          shape = step.shape;
        }
      }
    }
    if (pruned <= 0)
      continue;
    bool weights = r.newValue && r.newValue.getDefiningOp() &&
                   view.roleOf(r.newValue.getDefiningOp()) != Role::Forward &&
                   view.roleOf(r.newValue.getDefiningOp()) != Role::Prediction;
    bool isParameter =
        llvm::isa<mlir::BlockArgument>(r.oldValue) ||
        (r.oldValue.getDefiningOp() &&
         view.roleOf(r.oldValue.getDefiningOp()) == Role::Parameter);
    const char *what = isParameter || weights ? "weights" : "values";
    EffectLabel label = makeLabel(
        "parameter pruning",
        absl::StrFormat("parameter pruning: %d of %d %s of operand %d of %s "
                        "no longer contribute (zeroed)",
                        pruned, total, what, r.rewire->operand,
                        r.rewire->user.opName),
        r.rewire->repair.empty()
            ? "a zero constant takes their place"
            : absl::StrCat("repair ", printRepair(r.rewire->repair)));
    label.pruned = pruned;
    label.total = total;
    return label;
  }
  return std::nullopt;
}

namespace {
/// A reduction whose body takes a maximum: the max a softmax subtracts.
bool isMaxReduction(mlir::Operation *op) { return isGenericMaxReduction(op); }

bool feedsMaxReduction(mlir::Operation *op) {
  if (!op)
    return false;
  for (mlir::Operation *user : op->getUsers())
    if (isMaxReduction(user))
      return true;
  return false;
}
} // namespace

/// The max-subtraction that keeps a softmax's exponentials finite changes.
std::optional<EffectLabel> stabilityRule(const EditView &view) {
  auto touches = [&](mlir::Operation *op) {
    if (!op)
      return false;
    if (isMaxReduction(op) || feedsMaxReduction(op))
      return true;
    for (mlir::Value operand : op->getOperands())
      if (isMaxReduction(operand.getDefiningOp()))
        return true; // a user of the max: the subtraction
    return false;
  };
  // An operand edit changes only the operands it rewires: the op that
  // subtracts the max reading other logits is not a stability change.
  bool hit = view.edit.kind != EditKind::Operand && touches(view.target);
  for (const ResolvedRewire &r : view.rewires)
    hit |= touches(r.user) &&
           (isMaxReduction(r.oldValue ? r.oldValue.getDefiningOp() : nullptr) ||
            isMaxReduction(r.user) || feedsMaxReduction(r.user));
  if (!hit)
    return std::nullopt;
  return makeLabel(
      "numerical-stability change",
      "numerical-stability change: the max a softmax subtracts before "
      "exponentiating is changed or bypassed",
      "touches a max-reduction, what feeds it or what subtracts it");
}

namespace {

/// An op of the loss: where labels meet outputs, or an exponential,
/// logarithm or reduction (softmax, cross-entropy) in a training loop whose
/// values reach such an op.
bool computesLoss(const EditView &view, mlir::Operation *op) {
  if (!op)
    return false;
  if (view.roleOf(op) == Role::Loss)
    return true;
  auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(op);
  if (!linalg || llvm::isa<mlir::linalg::MatmulOp>(op) ||
      (view.roleOf(op) != Role::Forward && view.roleOf(op) != Role::Gradient))
    return false;
  bool softmaxLike = linalg.getNumReductionLoops() > 0;
  op->walk([&](mlir::Operation *inner) {
    llvm::StringRef name = inner->getName().getStringRef();
    softmaxLike |= name == "math.exp" || name == "math.log";
  });
  if (!softmaxLike)
    return false;
  // Within a few steps of the loss.
  llvm::SmallVector<std::pair<mlir::Operation *, int>> work = {{op, 0}};
  llvm::DenseSet<mlir::Operation *> seen;
  while (!work.empty()) {
    auto [current, depth] = work.pop_back_val();
    if (view.roleOf(current) == Role::Loss)
      return true;
    if (depth >= 6 || !seen.insert(current).second)
      continue;
    for (mlir::Operation *user : current->getUsers())
      work.push_back({user, depth + 1});
  }
  return false;
}

} // namespace

/// The loss or the softmax feeding it reads other values, or one of its ops
/// is deleted or replaced: the objective the training follows changes.
std::optional<EffectLabel> lossRule(const EditView &view) {
  mlir::Operation *touched = nullptr;
  // A constant takes its role from what uses it (a callee's zero may
  // inherit "loss" from the call): its own edit is not a loss change.
  if (view.edit.kind != EditKind::Operand &&
      view.edit.kind != EditKind::Constant && computesLoss(view, view.target))
    touched = view.target;
  for (const ResolvedRewire &r : view.rewires)
    if (!touched && computesLoss(view, r.user))
      touched = r.user;
  if (!touched)
    return std::nullopt;
  return makeLabel(
      "loss change",
      absl::StrCat("loss change: ", touched->getName().getStringRef().str(),
                   view.roleOf(touched) == Role::Loss
                       ? " (where the labels meet the outputs)"
                       : " (the softmax or cross-entropy before the loss)",
                   " computes from other values"),
      "touches an op of the loss or of the softmax that feeds it");
}

/// A forward or prediction op is deleted, or another takes an earlier value
/// in place of its input: a layer, an activation or a bias is skipped.
std::optional<EffectLabel> skippedRule(const EditView &view) {
  auto describeOp = [](mlir::Operation *op) -> std::string {
    if (llvm::isa<mlir::linalg::MatmulOp>(op))
      return "a layer's matmul";
    bool relu = false, exp = false, add = false;
    op->walk([&](mlir::Operation *inner) {
      relu |= llvm::isa<mlir::arith::MaximumFOp, mlir::arith::MaxNumFOp>(inner);
      exp |= inner->getName().getStringRef() == "math.exp";
      add |= llvm::isa<mlir::arith::AddFOp>(inner);
    });
    if (relu)
      return "a ReLU activation";
    if (exp)
      return "an exponential (softmax)";
    if (add)
      return "a bias addition";
    return op->getName().getStringRef().str();
  };
  bool forward = view.target && (view.roleOf(view.target) == Role::Forward ||
                                 view.roleOf(view.target) == Role::Prediction);
  // An op of a linalg body (a ReLU's max) deleted or replaced skips what
  // its linalg op computes.
  mlir::Operation *skipped = view.target;
  while (skipped &&
         llvm::isa_and_nonnull<mlir::linalg::GenericOp>(skipped->getParentOp()))
    skipped = skipped->getParentOp();
  if ((view.edit.kind == EditKind::Delete ||
       view.edit.kind == EditKind::Replace) &&
      forward && skipped && computesValues(skipped))
    return makeLabel(
        "layer or activation skipped",
        absl::StrCat("layer or activation skipped: ", describeOp(skipped),
                     view.roleOf(view.target) == Role::Forward
                         ? " in training"
                         : " in prediction"),
        view.describeEdit());
  for (const ResolvedRewire &r : view.rewires) {
    if (!r.user || !r.newValue || !r.oldValue)
      continue;
    Role role = view.roleOf(r.user);
    mlir::Operation *oldProducer = r.oldValue.getDefiningOp();
    if ((role == Role::Forward || role == Role::Prediction) && oldProducer &&
        computesValues(oldProducer) && view.roleOf(oldProducer) == role &&
        r.newValue.getType() == r.oldValue.getType())
      return makeLabel(
          "layer or activation skipped",
          absl::StrCat("layer or activation skipped: ", r.rewire->user.opName,
                       " bypasses ", describeOp(oldProducer)),
          "an op of the same pass takes an earlier value in place of "
          "its input");
  }
  return std::nullopt;
}

/// Any other edit whose ops all only compute initial parameter values (the
/// hash of a weight's indices, a scale): the initial weights are computed
/// differently, not just scaled.
std::optional<EffectLabel> initialValuesRule(const EditView &view) {
  // Moving or swapping ops without rewiring them computes the same values.
  if ((view.edit.kind == EditKind::Move || view.edit.kind == EditKind::Swap) &&
      view.rewires.empty())
    return std::nullopt;
  std::vector<mlir::Operation *> touched;
  for (mlir::Operation *op : {view.target, view.anchor})
    if (op)
      touched.push_back(op);
  for (const ResolvedRewire &r : view.rewires)
    if (r.user)
      touched.push_back(r.user);
  if (touched.empty() || llvm::any_of(touched, [&](mlir::Operation *op) {
        return view.roleOf(op) != Role::Parameter;
      }))
    return std::nullopt;
  return makeLabel(
      "initialisation change",
      absl::StrCat("initialisation change: initial parameter values "
                   "computed differently (",
                   view.describeEdit(), ")"),
      "every op the edit touches only computes initial parameter values");
}

/// Alone, the edit leaves every prediction as it was and costs less.
std::optional<EffectLabel> deadComputationRule(const EditView &view) {
  const EditEvidence &e = view.evidence;
  if (!e.alone || !e.baseline || !e.alone->ok())
    return std::nullopt;
  bool sameAnswers =
      e.alone->validation.correct == e.baseline->validation.correct &&
      e.alone->validation.total == e.baseline->validation.total;
  bool cheaper =
      e.alone->staticCost < e.baseline->staticCost ||
      (e.alone->runtimeRatio > 0 &&
       e.alone->runtimeRatio <
           (e.baseline->runtimeRatio > 0 ? e.baseline->runtimeRatio : 1.0) -
               e.noise);
  if (!sameAnswers || !cheaper)
    return std::nullopt;
  return makeLabel(
      "dead computation removed",
      absl::StrCat("dead computation removed: ", view.describeEdit(),
                   " changes no prediction and costs less"),
      "alone it keeps every validation answer");
}

} // namespace gevo
