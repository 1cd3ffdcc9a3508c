//===- bypass_rules.cc - Op edits that take a factor out of an update -----===//
//
// An op edit (delete, operand, swap, replace, copy, move) whose rewire
// makes a parameter's update skip a product with a scalar (the learning
// rate times the gradient, the decay times the parameter, the momentum
// times the velocity), or apply a copy of one again, labelled as that
// scalar's change: the factor bypassed is 1, the term dropped is 0, the
// factor applied twice is squared.

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/flow_labels.h"
#include "analysis/label_rules.h"
#include "analysis/value_flow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

namespace gevo {
namespace {

/// A scalar the update stopped applying, and what it multiplied.
struct Bypass {
  double old = 0, next = 0;
  mlir::Value scaled;
  const char *how = "";
};

/// `op` multiplies `scaled` by a scalar (through calls): the scalar.
std::optional<std::pair<double, mlir::Value>> productOf(mlir::ModuleOp module,
                                                        mlir::Operation *op) {
  if (!llvm::isa_and_nonnull<mlir::arith::MulFOp>(op))
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i)
    if (std::optional<double> c = scalarThroughCalls(module, op->getOperand(i)))
      return std::make_pair(*c, op->getOperand(1 - i));
  return std::nullopt;
}

/// What the rewire leaves out: a product read as its other factor (the
/// scalar becomes 1) or as zero, or a sum read as its other term (the
/// product it added becomes 0).
std::optional<Bypass> bypassOf(mlir::ModuleOp module, const ResolvedRewire &r) {
  if (!r.user || !r.oldValue)
    return std::nullopt;
  mlir::Operation *was = r.oldValue.getDefiningOp();
  std::optional<double> constant = newConstant(r);
  if (auto product = productOf(module, was)) {
    if (r.newValue && r.newValue == product->second)
      return Bypass{product->first, 1, product->second,
                    "the update no longer applies it"};
    if (constant && *constant == 0)
      return Bypass{product->first, 0, product->second,
                    "the update drops its term"};
  }
  if (!llvm::isa_and_nonnull<mlir::arith::AddFOp>(was) || !r.newValue)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i)
    if (auto product = productOf(module, was->getOperand(i).getDefiningOp()))
      if (r.newValue == was->getOperand(1 - i))
        return Bypass{product->first, 0, product->second,
                      "the update drops its term"};
  return std::nullopt;
}

/// A copy of a product with a scalar wired in front of a product with a
/// scalar the user read: the user's scalar is applied times the copy's.
std::optional<Bypass> extraProductOf(const EditView &view,
                                     const ResolvedRewire &r) {
  if (view.edit.kind != EditKind::Copy || !r.user || !r.oldValue ||
      r.rewire->value.kind != ValueRef::Kind::NewResult)
    return std::nullopt;
  auto copied = productOf(view.before, view.target);
  auto inner = productOf(view.before, r.oldValue.getDefiningOp());
  if (!copied || !inner)
    return std::nullopt;
  // The copy's other factor, as its rewires set it, is what the user read.
  for (mlir::OpOperand &operand : view.target->getOpOperands())
    if (operand.get() == copied->second)
      for (const ResolvedRewire &n : view.rewires)
        if (n.rewire->userIsNew &&
            n.rewire->operand == static_cast<int>(operand.getOperandNumber()) &&
            n.newValue == r.oldValue)
          return Bypass{inner->first, inner->first * copied->first,
                        inner->second, "the update multiplies by it again"};
  return std::nullopt;
}

} // namespace

std::optional<EffectLabel> bypassRule(const EditView &view) {
  if (view.edit.kind == EditKind::Constant || !view.flow)
    return std::nullopt;
  for (const ResolvedRewire &r : view.rewires) {
    if (!r.user || view.roleOf(r.user) != Role::Update)
      continue;
    std::optional<Bypass> bypass = bypassOf(view.before, r);
    if (!bypass)
      bypass = extraProductOf(view, r);
    if (!bypass || bypass->old == bypass->next)
      continue;
    Sinks updates;
    for (FlowSink &sink : sinksOf(view, r.user))
      if (sink.kind == FlowSink::Kind::Update)
        updates.push_back(std::move(sink));
    if (updates.empty())
      continue;
    // What the scalar multiplied: carried state (a velocity: momentum; the
    // parameter: decay) or the gradient (a learning rate).
    const ValueFlow &flow = *view.flow;
    auto origin = flow.carriedOrigin(bypass->scaled);
    const char *kind = nullptr, *what = nullptr;
    if (origin && flow.isOptimizerState(origin->first, origin->second))
      kind = "momentum change", what = "momentum";
    else if (origin)
      kind = "weight-decay change", what = "decay factor";
    else if (flow.isLabelDerived(bypass->scaled))
      kind = "learning-rate change", what = "learning rate";
    else
      continue;
    double factor = bypass->next / bypass->old;
    EffectLabel label = makeLabel(
        kind,
        absl::StrCat(kind,
                     bypass->next != 0 ? absl::StrCat(" x", shortNumber(factor))
                                       : std::string(),
                     ": ", what, " of ", layersOf(flow, updates), " ",
                     shortNumber(bypass->old), " -> ",
                     shortNumber(bypass->next), " (", bypass->how, ")"),
        absl::StrCat(view.describeEdit(), ": ", r.rewire->user.opName,
                     " reads around the product with ",
                     shortNumber(bypass->old)));
    label.factor = factor;
    label.roles = "update";
    return withPath(label, updates.front());
  }
  return std::nullopt;
}

} // namespace gevo
