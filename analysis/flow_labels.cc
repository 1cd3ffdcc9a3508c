//===- flow_labels.cc - Labels from where a constant's value ends up ------===//
//
// Guards, input preprocessing and data selection (flow_labels.h), and what a
// label says about the sinks when no rule applies.

#include "analysis/flow_labels.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace gevo {

std::string shortNumber(double v) {
  if (std::optional<int64_t> n = integralValue(v))
    return absl::StrCat(*n);
  return absl::StrFormat("%.3g", v);
}

EffectLabel withPath(EffectLabel label, const FlowSink &sink) {
  label.path = describePath(sink.path);
  return label;
}

mlir::Operation *firstOp(const FlowSink &sink) {
  // A call or a linalg.generic on the path passes the value into its body.
  for (mlir::Operation *op : llvm::drop_begin(sink.path))
    if (!llvm::isa<mlir::func::CallOp, mlir::linalg::GenericOp>(op))
      return op;
  return nullptr;
}

namespace {

/// Whether every use of the max is subtracted before an exponential (a
/// softmax: the result does not depend on the max).
bool onlyShiftsASoftmax(mlir::Operation *maxReduction) {
  for (mlir::Operation *user : maxReduction->getUsers()) {
    bool sub = false, exp = false;
    user->walk([&](mlir::Operation *inner) {
      sub |= llvm::isa<mlir::arith::SubFOp>(inner);
      exp |= inner->getName().getStringRef() == "math.exp";
    });
    if (!llvm::isa<mlir::linalg::GenericOp>(user) || !sub || !exp)
      return false;
  }
  return true;
}

/// Whether `op` computes max(x, 0) (a ReLU, or a clamp from 0).
bool isRelu(mlir::Operation *op) {
  if (!op || !llvm::isa<mlir::linalg::LinalgOp>(op))
    return false;
  bool relu = false;
  op->walk([&](mlir::Operation *inner) {
    if (llvm::isa<mlir::arith::MaximumFOp, mlir::arith::MaxNumFOp>(inner))
      for (mlir::Value operand : inner->getOperands())
        relu |= foldScalar(operand) == 0.0;
  });
  return relu;
}

} // namespace

std::optional<EffectLabel> guardLabel(const Sinks &sinks, double old,
                                      double next) {
  bool softmax = llvm::all_of(
      sinks, [](const FlowSink &s) { return onlyShiftsASoftmax(s.op); });
  // A max-pool over ReLU outputs (>= 0) starting from a value <= 0.
  bool pool =
      !softmax && next <= 0 && llvm::all_of(sinks, [](const FlowSink &s) {
        return s.op->getNumOperands() > 0 &&
               isRelu(s.op->getOperand(0).getDefiningOp());
      });
  bool invariant =
      (softmax && std::isfinite(next) && std::fabs(next) <= 50) || pool;
  const char *what = softmax ? "softmax running max"
                     : pool  ? "max-pool"
                             : "max-reduction";
  const char *why = softmax ? " (the softmax is shift-invariant)"
                    : pool  ? " (it pools ReLU outputs, >= 0)"
                            : "";
  return withPath(
      makeLabel("numerical-stability change",
                absl::StrCat("numerical-stability change: numerical guard: ",
                             what, " initial value ", shortNumber(old), " -> ",
                             shortNumber(next),
                             invariant ? "; cannot change the result"
                                       : "; may change the result",
                             invariant ? why : ""),
                "the constant is the initial value of a max-reduction"),
      sinks.front());
}

/// The constant scales or shifts the model's inputs as given.
std::optional<EffectLabel> preprocessingLabel(const EditView &view,
                                              const Sinks &sinks, double old,
                                              double next) {
  const char *what = nullptr;
  for (const FlowSink &sink : sinks) {
    mlir::Operation *op = firstOp(sink);
    if (!op ||
        !llvm::isa<mlir::arith::MulFOp, mlir::arith::DivFOp,
                   mlir::arith::AddFOp, mlir::arith::SubFOp>(op) ||
        !llvm::any_of(op->getOperands(),
                      [&](mlir::Value v) { return view.flow->isRawInput(v); }))
      return std::nullopt;
    what = llvm::isa<mlir::arith::MulFOp>(op)   ? "scale"
           : llvm::isa<mlir::arith::DivFOp>(op) ? "divisor"
                                                : "offset";
  }
  if (!what)
    return std::nullopt;
  bool factor = std::string(what) != "offset" && old != 0;
  EffectLabel label = makeLabel(
      "input preprocessing change",
      absl::StrCat("input preprocessing change",
                   factor ? absl::StrFormat(" x%.3g", next / old) : "",
                   ": input ", what, " ", shortNumber(old), " -> ",
                   shortNumber(next)),
      "the constant meets the inputs as given, before any layer");
  label.factor = factor ? next / old : 0;
  return withPath(label, sinks.front());
}

std::optional<EffectLabel> dataLabel(const Sinks &sinks, double old,
                                     double next) {
  return withPath(
      makeLabel("training data selection change",
                absl::StrCat("training data selection change: which rows "
                             "each batch reads (",
                             shortNumber(old), " -> ", shortNumber(next), ")"),
                "the constant reaches where a slice of the training data "
                "starts, ends or steps"),
      sinks.front());
}

namespace {
std::string describeSink(const ValueFlow &flow, const FlowSink &s) {
  switch (s.kind) {
  case FlowSink::Kind::LoopControl:
    return "the trip count of " + flow.loopName(s.loop);
  case FlowSink::Kind::ParameterInit:
    return "the initial value of " + flow.parameterName(s.loop, s.position);
  case FlowSink::Kind::Update:
    return "the update of " + flow.parameterName(s.loop, s.position);
  case FlowSink::Kind::MaxInit:
    return "the initial value of a max-reduction";
  case FlowSink::Kind::Result:
    return "the returned results";
  case FlowSink::Kind::DataSelection:
    return "which rows of the training data are read";
  }
  return "?";
}

} // namespace

std::string describeSinks(const EditView &view, std::string *path) {
  if (!view.flow || !view.target || view.target->getNumResults() == 0)
    return "";
  std::vector<std::string> names;
  for (mlir::Value result : view.target->getResults())
    for (const FlowSink &sink : view.flow->trace(result)) {
      std::string name = describeSink(*view.flow, sink);
      if (llvm::is_contained(names, name))
        continue;
      if (names.empty() && path)
        *path = describePath(sink.path);
      names.push_back(name);
    }
  if (names.size() > 3) {
    names.resize(3);
    names.push_back("more");
  }
  return absl::StrJoin(names, ", ");
}

} // namespace gevo
