//===- label_values.cc - What the label rules read off ops and values ---===//

#include "analysis/label_rules.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

namespace gevo {

EffectLabel makeLabel(const char *kind, std::string summary,
                      std::string facts) {
  EffectLabel label;
  label.kind = kind;
  label.summary = std::move(summary);
  label.evidence = std::move(facts);
  return label;
}

/// The scalar a value holds when it is a float or integer constant (or a
/// splat of one).
std::optional<double> constantValue(mlir::Value value) {
  if (!value)
    return std::nullopt;
  auto constant = value.getDefiningOp<mlir::arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  mlir::Attribute attr = constant.getValue();
  if (auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(attr)) {
    if (!dense.isSplat())
      return std::nullopt;
    attr = dense.getSplatValue<mlir::Attribute>();
  }
  if (auto f = llvm::dyn_cast<mlir::FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(attr))
    return static_cast<double>(i.getValue().getSExtValue());
  return std::nullopt;
}

bool computesValues(mlir::Operation *op) {
  return llvm::isa<mlir::linalg::LinalgOp>(op) &&
         !llvm::isa<mlir::linalg::FillOp>(op);
}

std::optional<double> literalValue(const std::string &literal) {
  double value;
  if (absl::SimpleAtod(literal, &value))
    return value;
  return std::nullopt;
}

/// The value an operand takes after the rewire, when it is a constant.
std::optional<double> newConstant(const ResolvedRewire &r) {
  if (r.constantAfter)
    return r.constantAfter;
  if (r.rewire->value.kind == ValueRef::Kind::Constant)
    return literalValue(r.rewire->value.literal);
  return constantValue(r.newValue);
}

bool isFloatScalar(mlir::Value value) {
  return value && llvm::isa<mlir::FloatType>(value.getType());
}

int64_t elementsOf(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::optional<int64_t> integralValue(double v) {
  // Past a billion a person writes 1e+09 rather than the digits.
  if (!std::isfinite(v) || v != std::trunc(v) || std::fabs(v) >= 1e9)
    return std::nullopt;
  return static_cast<int64_t>(v);
}

std::string number(double v) {
  if (std::optional<int64_t> n = integralValue(v))
    return absl::StrCat(*n);
  return absl::StrFormat("%g", v);
}

std::optional<double> foldScalar(mlir::Value value, int depth) {
  if (!value || depth > 16)
    return std::nullopt;
  if (std::optional<double> constant = constantValue(value))
    return constant;
  mlir::Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  auto arg = [&](unsigned i) {
    return foldScalar(op->getOperand(i), depth + 1);
  };
  if (llvm::isa<mlir::arith::FPToSIOp, mlir::arith::FPToUIOp>(op)) {
    if (auto v = arg(0))
      return std::trunc(*v);
    return std::nullopt;
  }
  if (llvm::isa<mlir::arith::SIToFPOp, mlir::arith::UIToFPOp,
                mlir::arith::IndexCastOp, mlir::arith::ExtFOp,
                mlir::arith::TruncFOp, mlir::arith::ExtSIOp,
                mlir::arith::TruncIOp>(op))
    return arg(0);
  if (op->getNumOperands() != 2)
    return std::nullopt;
  std::optional<double> a = arg(0), b = arg(1);
  if (!a || !b)
    return std::nullopt;
  if (llvm::isa<mlir::arith::MulFOp, mlir::arith::MulIOp>(op))
    return *a * *b;
  if (llvm::isa<mlir::arith::AddFOp, mlir::arith::AddIOp>(op))
    return *a + *b;
  if (llvm::isa<mlir::arith::SubFOp, mlir::arith::SubIOp>(op))
    return *a - *b;
  if (llvm::isa<mlir::arith::MaximumFOp, mlir::arith::MaxNumFOp,
                mlir::arith::MaxSIOp>(op))
    return std::max(*a, *b);
  if (llvm::isa<mlir::arith::MinimumFOp, mlir::arith::MinNumFOp,
                mlir::arith::MinSIOp>(op))
    return std::min(*a, *b);
  if (llvm::isa<mlir::arith::DivFOp>(op) && *b != 0)
    return *a / *b;
  if (llvm::isa<mlir::arith::DivSIOp>(op) && *b != 0)
    return std::trunc(*a / *b);
  return std::nullopt;
}

std::optional<int64_t> foldTripCount(mlir::Operation *op) {
  auto loop = llvm::dyn_cast_or_null<mlir::scf::ForOp>(op);
  if (!loop)
    return std::nullopt;
  std::optional<double> lower = foldScalar(loop.getLowerBound()),
                        upper = foldScalar(loop.getUpperBound()),
                        step = foldScalar(loop.getStep());
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  if (*upper <= *lower)
    return 0;
  return static_cast<int64_t>(std::ceil((*upper - *lower) / *step));
}

std::string loopName(mlir::Operation *loop, const RoleMap &roles) {
  for (mlir::Operation *parent = loop->getParentOp(); parent;
       parent = parent->getParentOp())
    if (roles.isTrainingLoop(parent))
      return "batches per epoch";
  return roles.isTrainingLoop(loop) ? "epochs" : "loop iterations";
}

} // namespace gevo
