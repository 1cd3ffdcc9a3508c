//===- training_graph_ops.cc - Reading forward ops with MLIR --------------===//
//
// Names ops in messages, reads scalar constants, and reads tensor.pad, the
// 2-D convolution and the pools into nodes (strides, window, pad values).
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_graph_ops.h"

#include <cmath>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "gevo/ir/mlir_support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace gevo::training {

std::string describe(mlir::Operation *op) {
  std::string where = op->getName().getStringRef().str();
  if (auto named = llvm::dyn_cast<mlir::NameLoc>(op->getLoc()))
    return absl::StrCat(where, " (", named.getName().str(), ")");
  std::string at = formatLocation(op->getLoc());
  return at.empty() ? where : absl::StrCat(where, " at ", at);
}

std::optional<double> scalarConstant(mlir::Value value) {
  auto constant = value.getDefiningOp<mlir::arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto f = llvm::dyn_cast<mlir::FloatAttr>(constant.getValue()))
    return f.getValueAsDouble();
  return std::nullopt;
}

absl::Status unsupportedOp(mlir::Operation *op, const std::string &why) {
  return absl::InvalidArgumentError(
      absl::StrCat("op without a gradient rule: ", describe(op),
                   why.empty() ? "" : absl::StrCat(" (", why, ")")));
}

static std::vector<int64_t> intsAttr(mlir::Operation *op, const char *name) {
  std::vector<int64_t> values;
  if (auto attr = op->getAttrOfType<mlir::DenseIntElementsAttr>(name))
    for (const llvm::APInt &v : attr.getValues<llvm::APInt>())
      values.push_back(v.getSExtValue());
  return values;
}

/// tensor.pad, the 2-D convolution and the pools; leaves `node` an Input
/// for any other op.
absl::Status readWindowOp(mlir::Operation *op, Node &node) {
  if (auto pad = llvm::dyn_cast<mlir::tensor::PadOp>(op)) {
    mlir::Value fill = pad.getConstantPaddingValue();
    std::optional<double> value = fill ? scalarConstant(fill) : std::nullopt;
    if (!value || pad.getStaticLow()[0] != 0 || pad.getStaticHigh()[0] != 0)
      return unsupportedOp(op, "not a constant pad of the spatial dimensions");
    node.kind = NodeKind::Pad;
    node.low.assign(pad.getStaticLow().begin(), pad.getStaticLow().end());
    node.high.assign(pad.getStaticHigh().begin(), pad.getStaticHigh().end());
    node.padValue = *value;
    node.name = "padded";
    return absl::OkStatus();
  }
  std::string name = op->getName().getStringRef().str();
  bool conv = name == "linalg.conv_2d_nchw_fchw";
  bool pool =
      name == "linalg.pooling_nchw_max" || name == "linalg.pooling_nchw_sum";
  if (!conv && !pool)
    return absl::OkStatus();
  node.strides = intsAttr(op, "strides");
  std::vector<int64_t> dilations = intsAttr(op, "dilations");
  if (node.strides.size() != 2 || dilations != std::vector<int64_t>{1, 1})
    return unsupportedOp(op, "dilations other than 1");
  mlir::Value init = op->getOperand(2);
  auto fill = init.getDefiningOp<mlir::linalg::FillOp>();
  std::optional<double> start =
      fill ? scalarConstant(fill.getDpsInputs()[0]) : std::nullopt;
  if (conv) {
    if (!start || *start != 0)
      return unsupportedOp(op, "accumulates into a non-zero tensor");
    node.kind = NodeKind::Conv;
    node.name = "conv";
    return absl::OkStatus();
  }
  auto window = llvm::cast<mlir::RankedTensorType>(op->getOperand(1).getType());
  node.window.assign(window.getShape().begin(), window.getShape().end());
  bool max = name == "linalg.pooling_nchw_max";
  if (!start || *start != (max ? -INFINITY : 0.0))
    return unsupportedOp(op, "starts from another value than its identity");
  node.kind = max ? NodeKind::MaxPool : NodeKind::SumPool;
  node.name = "pool";
  return absl::OkStatus();
}

absl::Status readBody(mlir::Operation *generic, Node &node) {
  static const std::set<std::string> known = {
      "arith.addf", "arith.subf",     "arith.mulf",     "arith.divf",
      "arith.negf", "arith.maximumf", "arith.minimumf", "arith.select",
      "arith.cmpf", "math.exp",       "math.log",       "math.tanh",
      "math.sqrt",  "math.absf"};
  auto op = llvm::cast<mlir::linalg::GenericOp>(generic);
  mlir::Block *block = op.getBody();
  std::map<const void *, int> index;
  int inputs = static_cast<int>(op.getNumDpsInputs());
  for (int i = 0; i < inputs; ++i)
    index[block->getArgument(i).getAsOpaquePointer()] = i;
  if (!block->getArgument(inputs).use_empty())
    return unsupportedOp(generic, "its body reads the output");
  auto valueOf = [&](mlir::Value v) -> int {
    auto it = index.find(v.getAsOpaquePointer());
    if (it != index.end())
      return it->second;
    std::optional<double> c = scalarConstant(v); // defined outside the body
    if (!c)
      return -1;
    node.body.push_back({"arith.constant", {}, "", *c});
    return index[v.getAsOpaquePointer()] =
               inputs + static_cast<int>(node.body.size()) - 1;
  };
  for (mlir::Operation &inner : block->without_terminator()) {
    ScalarOp scalar;
    scalar.name = inner.getName().getStringRef().str();
    if (scalar.name == "arith.constant") {
      std::optional<double> c = scalarConstant(inner.getResult(0));
      if (!c)
        return unsupportedOp(generic, "a constant that is not a float");
      scalar.value = *c;
    } else if (!known.count(scalar.name)) {
      return unsupportedOp(generic, absl::StrCat("body: ", scalar.name));
    }
    if (auto cmp = llvm::dyn_cast<mlir::arith::CmpFOp>(inner))
      scalar.predicate =
          mlir::arith::stringifyCmpFPredicate(cmp.getPredicate()).str();
    for (mlir::Value v : inner.getOperands()) {
      int arg = valueOf(v);
      if (arg < 0)
        return unsupportedOp(generic, "its body reads a value from outside");
      scalar.args.push_back(arg);
    }
    node.body.push_back(scalar);
    index[inner.getResult(0).getAsOpaquePointer()] =
        inputs + static_cast<int>(node.body.size()) - 1;
  }
  node.yield = valueOf(block->getTerminator()->getOperand(0));
  if (node.yield < 0)
    return unsupportedOp(generic, "its body yields a value from outside");
  node.kind = NodeKind::Elementwise;
  node.name = "elementwise";
  return absl::OkStatus();
}

} // namespace gevo::training
