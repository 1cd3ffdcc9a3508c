//===- flow_rules.cc - Labels for constants by where their value ends up --===//
//
// A constant edit is labelled by its value's sinks (value_flow.h), whatever
// the program's style: a training loop's trip count, a parameter's initial
// scale or seed, a parameter's learning rate, a softmax's running-max guard.

#include <cmath>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analysis/flow_labels.h"
#include "analysis/label_rules.h"
#include "analysis/value_flow.h"
#include "gevo/ir/apply_edit.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace gevo {
namespace {

bool allOf(const Sinks &sinks, FlowSink::Kind kind) {
  return !sinks.empty() &&
         llvm::all_of(sinks, [&](const FlowSink &s) { return s.kind == kind; });
}

std::string ordinal(int64_t n) {
  int64_t tens = n % 100, units = n % 10;
  const char *suffix = (tens >= 11 && tens <= 13) ? "th"
                       : units == 1               ? "st"
                       : units == 2               ? "nd"
                       : units == 3               ? "rd"
                                                  : "th";
  return absl::StrCat(n, suffix);
}

} // namespace

std::string layersOf(const ValueFlow &flow, const Sinks &sinks) {
  std::set<int> layers, all;
  for (const FlowSink &s : sinks) {
    layers.insert(flow.layerOf(s.loop, s.position));
    for (unsigned p : flow.parametersOf(s.loop))
      all.insert(flow.layerOf(s.loop, p));
  }
  if (layers.size() > 1 && layers == all)
    return "every layer";
  return absl::StrCat(layers.size() > 1 ? "layers " : "layer ",
                      absl::StrJoin(layers, ", "));
}

namespace {

/// The module once the edit is applied, and where each op went.
struct After {
  mlir::IRMapping mapping;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  bool applied = false;
  explicit After(const EditView &view)
      : module(llvm::cast<mlir::ModuleOp>(view.before->clone(mapping))),
        applied(applyEdit(*module, view.edit).ok()) {}
  std::optional<int64_t> tripCount(mlir::Operation *loop) {
    mlir::Operation *mapped = applied ? mapping.lookupOrNull(loop) : nullptr;
    return mapped ? tripCountOf(mapped) : std::nullopt;
  }
};

const char *const kBounds[] = {"lower bound", "upper bound", "step"};

/// "epochs 3 -> 2" for one loop whose bound, step or condition the
/// constant sets, with "every 3rd batch trained" for a step.
std::optional<std::string> tripChange(const ValueFlow &flow, After &after,
                                      const FlowSink &sink, double old,
                                      double next) {
  if (!flow.isTrainingLoop(sink.loop))
    return std::nullopt;
  std::optional<int64_t> was = tripCountOf(sink.loop),
                         now = after.tripCount(sink.loop);
  if (!was || !now)
    return std::nullopt;
  if (*was == *now)
    return std::string(); // this loop keeps its trip count
  std::string name = flow.loopName(sink.loop);
  std::string text = absl::StrFormat("%s %d -> %d", name, *was, *now);
  bool step = llvm::isa<mlir::scf::ForOp>(sink.loop) && sink.position == 2;
  if (step && name == "batches per epoch" && old == 1 && next > 1 &&
      next == std::floor(next))
    absl::StrAppend(&text, " (every ", ordinal(static_cast<int64_t>(next)),
                    " batch trained)");
  return text;
}

std::optional<EffectLabel> scheduleLabel(const EditView &view,
                                         const Sinks &sinks, double old,
                                         double next) {
  After after(view);
  std::vector<std::string> changes, bounds;
  std::vector<mlir::Operation *> loops;
  double factor = 0;
  // Outer loops first.
  Sinks ordered = sinks;
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const FlowSink &a, const FlowSink &b) {
                     return a.loop != b.loop && a.loop->isAncestor(b.loop);
                   });
  for (const FlowSink &sink : ordered) {
    if (llvm::is_contained(loops, sink.loop))
      continue;
    loops.push_back(sink.loop);
    std::optional<std::string> change =
        tripChange(*view.flow, after, sink, old, next);
    if (!change)
      return std::nullopt;
    if (change->empty())
      continue;
    if (changes.empty())
      factor = static_cast<double>(*after.tripCount(sink.loop)) /
               std::max<int64_t>(*tripCountOf(sink.loop), 1);
    changes.push_back(*change);
    bounds.push_back(absl::StrCat(
        llvm::isa<mlir::scf::ForOp>(sink.loop) ? kBounds[sink.position]
        : sink.op && llvm::isa<mlir::scf::YieldOp>(sink.op) ? "counter step"
                                                            : "condition",
        " of the ", view.flow->loopName(sink.loop), " loop"));
  }
  if (changes.empty())
    return std::nullopt;
  EffectLabel label = makeLabel(
      "training schedule change",
      "training schedule change: " + absl::StrJoin(changes, ", "),
      "the constant reaches the " + absl::StrJoin(bounds, " and the "));
  label.factor = factor;
  return withPath(label, sinks.front());
}

std::optional<EffectLabel>
initLabel(const EditView &view, const Sinks &sinks,
          const std::vector<mlir::Operation *> &reached, double old,
          double next) {
  const FlowSink &sink = sinks.front();
  // How the constant enters the initial values: added into the argument of
  // a sine hash (a seed), through other non-linear ops (a hash constant),
  // multiplied in (a scale) or added (an offset).
  bool sine = false, otherMath = false;
  mlir::Operation *first = nullptr;
  for (mlir::Operation *op : reached) {
    llvm::StringRef name = op->getName().getStringRef();
    bool trig = name == "math.sin" || name == "math.cos";
    sine |= trig;
    otherMath |= name.starts_with("math.") && !trig;
  }
  first = firstOp(sink);
  bool additive =
      first && llvm::isa<mlir::arith::AddFOp, mlir::arith::SubFOp>(first);
  bool multiplies =
      first && llvm::isa<mlir::arith::MulFOp, mlir::arith::DivFOp>(first);
  bool seed = sine && additive;
  if ((sine || otherMath) && !seed) {
    EffectLabel label = makeLabel(
        "initialisation change",
        absl::StrFormat("initialisation change: %s initial values redrawn "
                        "(hash constant %s -> %s)",
                        layersOf(*view.flow, sinks), shortNumber(old),
                        shortNumber(next)),
        "the constant only reaches parameters' initial values, through "
        "the hash that draws them");
    return withPath(label, sink);
  }
  bool scale = !seed && multiplies;
  const char *what = seed       ? "seed"
                     : scale    ? "scale"
                     : additive ? "offset"
                                : "value";
  std::string factor =
      scale && old != 0 ? absl::StrFormat(" x%.3g", next / old) : "";
  EffectLabel label = makeLabel(
      "initialisation change",
      absl::StrFormat("initialisation change%s: %s initial %s %s -> %s", factor,
                      layersOf(*view.flow, sinks), what, shortNumber(old),
                      shortNumber(next)),
      "the constant only reaches parameters' initial values");
  label.factor = scale && old != 0 ? next / old : 0;
  return withPath(label, sink);
}

std::optional<EffectLabel> updateLabel(const EditView &view, const Sinks &sinks,
                                       double old, double next) {
  const FlowSink &sink = sinks.front();
  // The first arithmetic the constant meets scales the step.
  mlir::Operation *first = firstOp(sink);
  if (!first || old == 0 || next == 0)
    return std::nullopt;
  bool divisor = llvm::isa<mlir::arith::DivFOp>(first) &&
                 first->getOperand(1) == view.target->getResult(0);
  if (divisor) {
    EffectLabel label = makeLabel(
        "learning-rate change",
        absl::StrFormat("learning-rate change x%.3g (the loss gradient's "
                        "divisor %s -> %s): scales the steps of %s",
                        old / next, shortNumber(old), shortNumber(next),
                        layersOf(*view.flow, sinks)),
        "the constant divides what every reached update subtracts");
    label.factor = old / next;
    return withPath(label, sink);
  }
  if (!llvm::isa<mlir::arith::MulFOp>(first))
    return std::nullopt;
  // What the constant multiplies: carried state (a momentum's velocity, or
  // the parameter itself: a decay) or the gradient (a learning rate).
  for (mlir::Value operand : first->getOperands())
    if (auto origin = view.flow->carriedOrigin(operand)) {
      bool velocity =
          view.flow->isOptimizerState(origin->first, origin->second);
      const char *kind = velocity ? "momentum change" : "weight-decay change";
      EffectLabel label = makeLabel(
          kind,
          absl::StrFormat("%s x%.3g: %s of %s %s -> %s", kind, next / old,
                          velocity ? "momentum" : "decay factor",
                          layersOf(*view.flow, sinks), shortNumber(old),
                          shortNumber(next)),
          velocity ? "the constant scales the carried velocity"
                   : "the constant scales the parameter before its update");
      label.factor = next / old;
      return withPath(label, sink);
    }
  if (!llvm::any_of(first->getOperands(), [&](mlir::Value v) {
        return view.flow->isLabelDerived(v);
      }))
    return std::nullopt;
  EffectLabel label = makeLabel(
      "learning-rate change",
      absl::StrFormat("learning-rate change x%.3g: learning rate of %s %s -> "
                      "%s",
                      next / old, layersOf(*view.flow, sinks), shortNumber(old),
                      shortNumber(next)),
      "the constant scales the step of parameter updates only");
  label.factor = next / old;
  return withPath(label, sink);
}

/// The sinks a schedule label reads: all of them when every one is a loop's
/// control; for an integer constant (a counter's start or step), the control
/// of training loops even when the counter is read elsewhere too (as the
/// batch's row offset).
std::optional<Sinks> scheduleSinks(const EditView &view, const Sinks &sinks) {
  if (allOf(sinks, FlowSink::Kind::LoopControl))
    return sinks;
  if (!view.target->getResult(0).getType().isIntOrIndex())
    return std::nullopt;
  Sinks control;
  for (const FlowSink &sink : sinks)
    if (sink.kind == FlowSink::Kind::LoopControl &&
        view.flow->isTrainingLoop(sink.loop))
      control.push_back(sink);
  if (control.empty())
    return std::nullopt;
  return control;
}

} // namespace

std::optional<EffectLabel> flowRule(const EditView &view) {
  if (view.edit.kind != EditKind::Constant || !view.flow || !view.target ||
      !llvm::isa<mlir::arith::ConstantOp>(view.target))
    return std::nullopt;
  std::optional<double> old = constantValue(view.target->getResult(0));
  std::optional<double> next = literalValue(view.edit.literal);
  if (!old || !next)
    return std::nullopt;
  std::vector<mlir::Operation *> reached;
  Sinks sinks = view.flow->trace(view.target->getResult(0), &reached);
  std::optional<EffectLabel> label;
  const char *role = "forward";
  if ((label = preprocessingLabel(view, sinks, *old, *next)))
    role = allOf(sinks, FlowSink::Kind::Result) ? "prediction" : "forward";
  else if (allOf(sinks, FlowSink::Kind::DataSelection) &&
           (label = dataLabel(sinks, *old, *next)))
    role = "schedule";
  else if (std::optional<Sinks> control = scheduleSinks(view, sinks);
           control && (label = scheduleLabel(view, *control, *old, *next)))
    role = "schedule";
  else if (allOf(sinks, FlowSink::Kind::ParameterInit) &&
           (label = initLabel(view, sinks, reached, *old, *next)))
    role = "parameter";
  else if (allOf(sinks, FlowSink::Kind::MaxInit))
    label = guardLabel(sinks, *old, *next);
  else if (allOf(sinks, FlowSink::Kind::Update) &&
           (label = updateLabel(view, sinks, *old, *next)))
    role = "update";
  // The role by data flow, whatever the program's style (labels.cc keeps it).
  if (label)
    label->roles = role;
  return label;
}

} // namespace gevo
