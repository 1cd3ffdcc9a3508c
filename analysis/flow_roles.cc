//===- flow_roles.cc - Each op's role from where its values go -----------===//
//
// The roles op edits are labelled with (label_rules.h, FlowRoles), from the
// sinks value flow finds through calls and any loop form, with the
// shape-based pass (roles.h) where value flow finds none.

#include "analysis/label_rules.h"
#include "analysis/value_flow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace gevo {
namespace {

/// A linalg op that combines elements across a dimension (a matmul, a
/// reduction): what passes it is no longer one parameter's own update.
bool mixesElements(mlir::Operation *op) {
  auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(op);
  return linalg && linalg.getNumReductionLoops() > 0;
}

/// The op whose values stand for `op`: the linalg op around a body op.
mlir::Operation *representative(mlir::Operation *op) {
  while (op && llvm::isa_and_nonnull<mlir::linalg::LinalgOp>(op->getParentOp()))
    op = op->getParentOp();
  return op;
}

} // namespace

std::vector<FlowSink> sinksOf(const EditView &view, mlir::Operation *op) {
  std::vector<FlowSink> sinks;
  if (!view.flow || !op)
    return sinks;
  if (op->getNumResults() == 0)
    op = representative(op);
  for (mlir::Value result : op->getResults())
    for (FlowSink &sink : view.flow->trace(result))
      sinks.push_back(std::move(sink));
  return sinks;
}

std::optional<Role> FlowRoles::roleOf(mlir::Operation *op) const {
  op = representative(op);
  // Loops carry parameters rather than compute them: roles.h names them.
  if (!op || llvm::isa<mlir::arith::ConstantOp>(op) ||
      op->getNumResults() == 0 ||
      (op->getNumRegions() > 0 && !llvm::isa<mlir::linalg::LinalgOp>(op)))
    return std::nullopt;
  auto [it, inserted] = cache.try_emplace(op);
  if (inserted)
    it->second = compute(op);
  return it->second;
}

std::optional<Role> FlowRoles::compute(mlir::Operation *op) const {
  std::vector<FlowSink> sinks;
  bool labelDerived = false;
  for (mlir::Value result : op->getResults()) {
    labelDerived |= flow.isLabelDerived(result);
    for (FlowSink &sink : flow.trace(result))
      sinks.push_back(std::move(sink));
  }
  if (sinks.empty())
    return std::nullopt;
  auto count = [&](std::initializer_list<FlowSink::Kind> kinds) {
    return llvm::count_if(sinks, [&](const FlowSink &s) {
      return llvm::is_contained(kinds, s.kind);
    });
  };
  size_t n = sinks.size();
  if (count({FlowSink::Kind::LoopControl, FlowSink::Kind::DataSelection}) == n)
    return Role::Schedule;
  if (count({FlowSink::Kind::ParameterInit}) == n)
    return Role::Parameter;
  if (count({FlowSink::Kind::Update}) == 0)
    return count({FlowSink::Kind::Result}) > 0 &&
                   count({FlowSink::Kind::Result, FlowSink::Kind::MaxInit}) == n
               ? std::optional<Role>(Role::Prediction)
               : std::nullopt;
  // An update reads carried state (the parameter, its velocity) and reaches
  // that state's next value through elementwise ops only.
  bool readsCarried = llvm::any_of(op->getOperands(), [&](mlir::Value v) {
    return flow.carriedOrigin(v).has_value();
  });
  bool elementwise = llvm::any_of(sinks, [](const FlowSink &s) {
    return s.kind == FlowSink::Kind::Update &&
           llvm::none_of(llvm::drop_begin(s.path), mixesElements);
  });
  if (readsCarried && elementwise && !mixesElements(op))
    return Role::Update;
  if (labelDerived)
    return roles.roleOf(op) == Role::Loss ? Role::Loss : Role::Gradient;
  return Role::Forward;
}

Role EditView::roleOf(mlir::Operation *op) const {
  if (flowRoles)
    if (std::optional<Role> role = flowRoles->roleOf(op))
      return *role;
  return roles.roleOf(op);
}

std::optional<double> scalarThroughCalls(mlir::ModuleOp module,
                                         mlir::Value value, int depth) {
  if (std::optional<double> folded = foldScalar(value))
    return folded;
  auto argument = llvm::dyn_cast_or_null<mlir::BlockArgument>(value);
  if (!argument || depth > 8)
    return std::nullopt;
  auto function =
      llvm::dyn_cast<mlir::func::FuncOp>(argument.getOwner()->getParentOp());
  if (!function || argument.getOwner() != &function.getBody().front())
    return std::nullopt;
  // The same scalar at every call site.
  std::optional<double> common;
  bool agree = true;
  module.walk([&](mlir::func::CallOp call) {
    if (call.getCallee() != function.getSymName() || !agree)
      return;
    std::optional<double> at = scalarThroughCalls(
        module, call.getOperand(argument.getArgNumber()), depth + 1);
    agree = at && (!common || *common == *at);
    common = at;
  });
  return agree ? common : std::nullopt;
}

} // namespace gevo
