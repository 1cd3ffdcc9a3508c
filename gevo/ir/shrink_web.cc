//===- shrink_web.cc - The tensors a shrink narrows, grown from one value -===//

#include "gevo/ir/shrink_web.h"

#include "absl/strings/str_cat.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

namespace gevo {
namespace {

std::string nameOf(mlir::Operation *op) {
  return op->getName().getStringRef().str();
}

/// A tensor.empty, or a fill of one with a scalar: pure, so each use may get
/// its own narrowed copy without touching the others.
bool isSplittable(mlir::Value value) {
  mlir::Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (auto empty = llvm::dyn_cast<mlir::tensor::EmptyOp>(op))
    return empty.getType().hasStaticShape();
  if (auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(op))
    return fill->getNumResults() == 1 && fill.hasPureTensorSemantics() &&
           !llvm::isa<mlir::ShapedType>(fill.getInputs()[0].getType()) &&
           isSplittable(fill.getOutputs()[0]);
  return false;
}

int64_t product(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> dims) {
  int64_t out = 1;
  for (int64_t d : dims)
    out *= shape[d];
  return out;
}

/// The reassociation group holding `dim` of the expanded side, and its
/// number.
std::pair<int64_t, llvm::ArrayRef<int64_t>>
groupOf(llvm::ArrayRef<mlir::ReassociationIndices> groups, int64_t dim) {
  for (size_t g = 0; g < groups.size(); ++g)
    if (llvm::is_contained(groups[g], dim))
      return {static_cast<int64_t>(g), groups[g]};
  return {-1, {}};
}

std::pair<void *, int64_t> loopKey(mlir::Operation *op, unsigned loop) {
  return {op, -1 - static_cast<int64_t>(loop)};
}

} // namespace

Spread spreadCollapsed(llvm::ArrayRef<int64_t> shape,
                       llvm::ArrayRef<int64_t> group, int64_t dim,
                       Spread spread) {
  auto at = llvm::find(group, dim) - group.begin();
  spread.outer *= product(shape, group.take_front(at));
  spread.inner *= product(shape, group.drop_front(at + 1));
  return spread;
}

absl::StatusOr<std::pair<int64_t, Spread>>
spreadExpanded(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> group,
               int64_t size, Spread spread) {
  for (size_t at = 0; at < group.size(); ++at) {
    int64_t before = product(shape, group.take_front(at));
    int64_t after = product(shape, group.drop_front(at + 1));
    if (spread.outer % before != 0 || spread.inner % after != 0)
      continue;
    Spread inside{spread.outer / before, spread.inner / after};
    if (shape[group[at]] == inside.outer * size * inside.inner)
      return std::make_pair(group[at], inside);
  }
  return absl::InvalidArgumentError(
      "a reshape splits the dimension's indices over several dimensions");
}

Selection spreadSelection(const Selection &keep, int64_t size, Spread spread) {
  if (spread.trivial())
    return keep;
  Selection out;
  if (spread.outer == 1 && keep.indices.empty() && keep.step == 1) {
    out.start = keep.start * spread.inner;
    out.stop = keep.stop * spread.inner;
    return out;
  }
  for (int64_t o = 0; o < spread.outer; ++o)
    for (int64_t i = 0; i < keep.count(); ++i)
      for (int64_t j = 0; j < spread.inner; ++j)
        out.indices.push_back((o * size + keep.at(i)) * spread.inner + j);
  return out;
}

Spread Web::spreadOf(mlir::Value value, int64_t dim) const {
  auto it = spreads.find({value.getAsOpaquePointer(), dim});
  return it == spreads.end() ? Spread{} : it->second;
}

Spread Web::spreadOf(mlir::OpOperand *use, int64_t dim) const {
  auto it = spreads.find({use, dim});
  return it == spreads.end() ? Spread{} : it->second;
}

absl::Status Web::grow(mlir::Value seed, int64_t dim) {
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(seed.getType());
  if (!type || dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
    return absl::InvalidArgumentError(
        "the value has no static dimension of that number");
  size = type.getDimSize(dim);
  GEVO_RETURN_IF_ERROR(addValue(seed, dim, Spread{}));
  while (!worklist.empty()) {
    auto [value, d] = worklist.pop_back_val();
    GEVO_RETURN_IF_ERROR(process(value, d));
  }
  return absl::OkStatus();
}

/// Records `spread` under `key`, or checks it against the one recorded.
static absl::Status
recordSpread(llvm::DenseMap<std::pair<void *, int64_t>, Spread> &spreads,
             std::pair<void *, int64_t> key, Spread spread, bool first) {
  if (first) {
    if (!spread.trivial())
      spreads[key] = spread;
    return absl::OkStatus();
  }
  auto it = spreads.find(key);
  Spread known = it == spreads.end() ? Spread{} : it->second;
  if (!(known == spread))
    return absl::InvalidArgumentError(
        "the dimension reaches a tensor in two different layouts");
  return absl::OkStatus();
}

absl::Status Web::addValue(mlir::Value value, int64_t dim, Spread spread) {
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return absl::InvalidArgumentError(
        "a value on the way has no static tensor shape");
  int64_t expected = spread.outer * size * spread.inner;
  if (type.getDimSize(dim) != expected)
    return absl::InvalidArgumentError(absl::StrCat("a tied dimension has size ",
                                                   type.getDimSize(dim),
                                                   ", not ", expected));
  bool first = values[value].insert(dim);
  GEVO_RETURN_IF_ERROR(
      recordSpread(spreads, {value.getAsOpaquePointer(), dim}, spread, first));
  if (first)
    worklist.push_back({value, dim});
  return absl::OkStatus();
}

/// An operand reached from its user's side: its value joins, or, for an
/// empty/fill, only this use does.
absl::Status Web::addOperand(mlir::OpOperand &operand, int64_t dim,
                             Spread spread) {
  if (isSplittable(operand.get()) && !values.count(operand.get())) {
    auto type = llvm::cast<mlir::RankedTensorType>(operand.get().getType());
    if (type.getDimSize(dim) != spread.outer * size * spread.inner)
      return absl::InvalidArgumentError("a tied dimension differs in size");
    bool first = splitUses[&operand].insert(dim);
    return recordSpread(spreads, {&operand, dim}, spread, first);
  }
  return addValue(operand.get(), dim, spread);
}

/// Iteration argument `i` of a loop: init, region argument, yield, result.
absl::Status Web::tieLoop(mlir::Operation *op, unsigned i, int64_t dim,
                          Spread spread) {
  auto loop = llvm::cast<mlir::scf::ForOp>(op);
  GEVO_RETURN_IF_ERROR(addValue(loop.getResult(i), dim, spread));
  GEVO_RETURN_IF_ERROR(addValue(loop.getRegionIterArgs()[i], dim, spread));
  GEVO_RETURN_IF_ERROR(addOperand(loop.getInitArgsMutable()[i], dim, spread));
  auto yield = llvm::cast<mlir::scf::YieldOp>(loop.getBody()->back());
  return addOperand(yield->getOpOperand(i), dim, spread);
}

absl::Status Web::addLoop(mlir::linalg::LinalgOp op, unsigned loop,
                          Spread spread) {
  bool first = loops[op].insert(loop);
  GEVO_RETURN_IF_ERROR(recordSpread(spreads, loopKey(op, loop), spread, first));
  if (!first)
    return absl::OkStatus();
  if (!op.hasPureTensorSemantics())
    return absl::InvalidArgumentError(
        absl::StrCat(nameOf(op), " works on buffers"));
  auto tie = [&](mlir::AffineMap map, auto &&add) -> absl::Status {
    for (unsigned p = 0; p < map.getNumResults(); ++p) {
      mlir::AffineExpr expr = map.getResult(p);
      auto dimExpr = llvm::dyn_cast<mlir::AffineDimExpr>(expr);
      if (dimExpr && dimExpr.getPosition() == loop)
        GEVO_RETURN_IF_ERROR(add(p));
      else if (!dimExpr && expr.isFunctionOfDim(loop))
        return absl::InvalidArgumentError(absl::StrCat(
            nameOf(op), " indexes the dimension by an expression"));
    }
    return absl::OkStatus();
  };
  for (mlir::OpOperand &operand : op->getOpOperands())
    GEVO_RETURN_IF_ERROR(
        tie(op.getMatchingIndexingMap(&operand),
            [&](unsigned p) { return addOperand(operand, p, spread); }));
  for (mlir::OpResult result : op->getResults())
    GEVO_RETURN_IF_ERROR(
        tie(op.getIndexingMapMatchingResult(result),
            [&](unsigned p) { return addValue(result, p, spread); }));
  size_t before = indexReads.size();
  op.getBlock()->walk([&](mlir::linalg::IndexOp index) {
    if (index.getDim() == loop)
      indexReads.push_back(index);
  });
  if (indexReads.size() > before && !spread.trivial())
    return absl::InvalidArgumentError(absl::StrCat(
        nameOf(op), " reads the index of a dimension a reshape spread"));
  return absl::OkStatus();
}

/// A tensor.pad that leaves the dimension unpadded, or a collapse_shape or
/// expand_shape, reached from `from` (its source or its result): the other
/// side joins, at the dimension and spread the reshape gives.
absl::Status Web::tieShaped(mlir::Operation *op, mlir::Value from, int64_t dim,
                            Spread spread) {
  if (auto pad = llvm::dyn_cast<mlir::tensor::PadOp>(op)) {
    if (pad.getStaticLow()[dim] != 0 || pad.getStaticHigh()[dim] != 0)
      return absl::InvalidArgumentError("tensor.pad pads the dimension");
    GEVO_RETURN_IF_ERROR(addOperand(pad.getSourceMutable(), dim, spread));
    return addValue(pad.getResult(), dim, spread);
  }
  auto collapse = llvm::dyn_cast<mlir::tensor::CollapseShapeOp>(op);
  auto expand = llvm::dyn_cast<mlir::tensor::ExpandShapeOp>(op);
  mlir::OpOperand &source = op->getOpOperand(0);
  mlir::Value result = op->getResult(0);
  bool fromExpanded = collapse ? from == source.get() : from == result;
  mlir::Value expanded = collapse ? source.get() : result;
  llvm::SmallVector<mlir::ReassociationIndices> groups =
      collapse ? collapse.getReassociationIndices()
               : expand.getReassociationIndices();
  llvm::ArrayRef<int64_t> shape =
      llvm::cast<mlir::RankedTensorType>(expanded.getType()).getShape();
  auto join = [&](bool expandedSide, int64_t d, Spread s) -> absl::Status {
    if (expandedSide == (collapse != nullptr))
      return addOperand(source, d, s);
    return addValue(result, d, s);
  };
  if (fromExpanded) {
    auto [g, group] = groupOf(groups, dim);
    return join(false, g, spreadCollapsed(shape, group, dim, spread));
  }
  GEVO_ASSIGN_OR_RETURN(auto inside,
                        spreadExpanded(shape, groups[dim], size, spread));
  return join(true, inside.first, inside.second);
}

absl::Status Web::addUse(mlir::OpOperand &use, int64_t dim, Spread spread) {
  mlir::Operation *user = use.getOwner();
  if (auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(user)) {
    mlir::AffineExpr expr = linalg.getMatchingIndexingMap(&use).getResult(dim);
    auto dimExpr = llvm::dyn_cast<mlir::AffineDimExpr>(expr);
    if (!dimExpr)
      return absl::InvalidArgumentError(absl::StrCat(
          nameOf(user), " indexes the dimension by an expression"));
    return addLoop(linalg, dimExpr.getPosition(), spread);
  }
  if (llvm::isa<mlir::scf::YieldOp>(user))
    if (llvm::isa<mlir::scf::ForOp>(user->getParentOp()))
      return tieLoop(user->getParentOp(), use.getOperandNumber(), dim, spread);
  if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(user)) {
    unsigned first = loop.getNumControlOperands();
    if (use.getOperandNumber() >= first)
      return tieLoop(loop, use.getOperandNumber() - first, dim, spread);
  }
  if (llvm::isa<mlir::tensor::CollapseShapeOp, mlir::tensor::ExpandShapeOp>(
          user) ||
      (llvm::isa<mlir::tensor::PadOp>(user) && use.getOperandNumber() == 0))
    return tieShaped(user, use.get(), dim, spread);
  return absl::InvalidArgumentError(
      absl::StrCat(nameOf(user), " uses a value on the way and cannot narrow"));
}

absl::Status Web::process(mlir::Value value, int64_t dim) {
  Spread spread = spreadOf(value, dim);
  if (auto result = llvm::dyn_cast<mlir::OpResult>(value)) {
    mlir::Operation *op = result.getOwner();
    if (auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(op)) {
      auto dimExpr = llvm::dyn_cast<mlir::AffineDimExpr>(
          linalg.getIndexingMapMatchingResult(result).getResult(dim));
      if (!dimExpr)
        return absl::InvalidArgumentError(absl::StrCat(
            nameOf(op), " indexes the dimension by an expression"));
      GEVO_RETURN_IF_ERROR(addLoop(linalg, dimExpr.getPosition(), spread));
    } else if (llvm::isa<mlir::scf::ForOp>(op)) {
      GEVO_RETURN_IF_ERROR(tieLoop(op, result.getResultNumber(), dim, spread));
    } else if (llvm::isa<mlir::tensor::PadOp, mlir::tensor::CollapseShapeOp,
                         mlir::tensor::ExpandShapeOp>(op)) {
      GEVO_RETURN_IF_ERROR(tieShaped(op, value, dim, spread));
    } else if (!llvm::isa<mlir::tensor::EmptyOp>(op) &&
               !(llvm::isa<mlir::arith::ConstantOp>(op) &&
                 llvm::isa<mlir::DenseElementsAttr>(
                     llvm::cast<mlir::arith::ConstantOp>(op).getValue()))) {
      sources.insert(value);
    }
  } else {
    auto argument = llvm::cast<mlir::BlockArgument>(value);
    mlir::Operation *parent = argument.getOwner()->getParentOp();
    if (llvm::isa<mlir::scf::ForOp>(parent)) {
      if (argument.getArgNumber() == 0)
        return absl::InvalidArgumentError("the loop's induction variable");
      GEVO_RETURN_IF_ERROR(
          tieLoop(parent, argument.getArgNumber() - 1, dim, spread));
    } else {
      sources.insert(value);
    }
  }
  if (sources.contains(value) && !spread.trivial())
    return absl::InvalidArgumentError(
        "a reshape spreads the dimension over a value from outside");
  for (mlir::OpOperand &use : value.getUses())
    GEVO_RETURN_IF_ERROR(addUse(use, dim, spread));
  return absl::OkStatus();
}

} // namespace gevo
