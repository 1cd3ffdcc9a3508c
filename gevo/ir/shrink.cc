//===- shrink.cc - Narrowing one dimension through every op that shares it ===//

#include "gevo/ir/shrink.h"

#include "gevo/ir/shrink_constants.h"

#include "absl/strings/str_cat.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

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

/// The set of tensors tied to one dimension, grown from a seed.
class Web {
public:
  absl::Status grow(mlir::Value seed, int64_t dim) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(seed.getType());
    if (!type || dim < 0 || dim >= type.getRank() || type.isDynamicDim(dim))
      return absl::InvalidArgumentError(
          "the value has no static dimension of that number");
    size = type.getDimSize(dim);
    GEVO_RETURN_IF_ERROR(addValue(seed, dim));
    while (!worklist.empty()) {
      auto [value, d] = worklist.pop_back_val();
      GEVO_RETURN_IF_ERROR(process(value, d));
    }
    return absl::OkStatus();
  }

  int64_t size = 0;
  llvm::MapVector<mlir::Value, DimSet> values;
  llvm::SetVector<mlir::Value> sources;
  llvm::MapVector<mlir::OpOperand *, DimSet> splitUses;
  llvm::MapVector<mlir::Operation *, llvm::SmallSetVector<unsigned, 2>> loops;
  std::vector<mlir::linalg::IndexOp> indexReads;

private:
  absl::Status addValue(mlir::Value value, int64_t dim) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape())
      return absl::InvalidArgumentError(
          "a value on the way has no static tensor shape");
    if (type.getDimSize(dim) != size)
      return absl::InvalidArgumentError(absl::StrCat(
          "a tied dimension has size ", type.getDimSize(dim), ", not ", size));
    if (values[value].insert(dim))
      worklist.push_back({value, dim});
    return absl::OkStatus();
  }

  /// An operand reached from its user's side: its value joins, or, for an
  /// empty/fill, only this use does.
  absl::Status addOperand(mlir::OpOperand &operand, int64_t dim) {
    if (isSplittable(operand.get()) && !values.count(operand.get())) {
      auto type = llvm::cast<mlir::RankedTensorType>(operand.get().getType());
      if (type.getDimSize(dim) != size)
        return absl::InvalidArgumentError("a tied dimension differs in size");
      splitUses[&operand].insert(dim);
      return absl::OkStatus();
    }
    return addValue(operand.get(), dim);
  }

  /// Iteration argument `i` of a loop: init, region argument, yield, result.
  absl::Status tieLoop(mlir::scf::ForOp loop, unsigned i, int64_t dim) {
    GEVO_RETURN_IF_ERROR(addValue(loop.getResult(i), dim));
    GEVO_RETURN_IF_ERROR(addValue(loop.getRegionIterArgs()[i], dim));
    GEVO_RETURN_IF_ERROR(addOperand(loop.getInitArgsMutable()[i], dim));
    auto yield = llvm::cast<mlir::scf::YieldOp>(loop.getBody()->back());
    return addOperand(yield->getOpOperand(i), dim);
  }

  absl::Status addLoop(mlir::linalg::LinalgOp op, unsigned loop) {
    if (!loops[op].insert(loop))
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
              [&](unsigned p) { return addOperand(operand, p); }));
    for (mlir::OpResult result : op->getResults())
      GEVO_RETURN_IF_ERROR(
          tie(op.getIndexingMapMatchingResult(result),
              [&](unsigned p) { return addValue(result, p); }));
    op.getBlock()->walk([&](mlir::linalg::IndexOp index) {
      if (index.getDim() == loop)
        indexReads.push_back(index);
    });
    return absl::OkStatus();
  }

  absl::Status addUse(mlir::OpOperand &use, int64_t dim) {
    mlir::Operation *user = use.getOwner();
    if (auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(user)) {
      mlir::AffineExpr expr =
          linalg.getMatchingIndexingMap(&use).getResult(dim);
      auto dimExpr = llvm::dyn_cast<mlir::AffineDimExpr>(expr);
      if (!dimExpr)
        return absl::InvalidArgumentError(absl::StrCat(
            nameOf(user), " indexes the dimension by an expression"));
      return addLoop(linalg, dimExpr.getPosition());
    }
    if (llvm::isa<mlir::scf::YieldOp>(user))
      if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(user->getParentOp()))
        return tieLoop(loop, use.getOperandNumber(), dim);
    if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(user)) {
      unsigned first = loop.getNumControlOperands();
      if (use.getOperandNumber() >= first)
        return tieLoop(loop, use.getOperandNumber() - first, dim);
    }
    return absl::InvalidArgumentError(
        absl::StrCat(nameOf(user), " uses a value on the way and cannot "
                                   "narrow"));
  }

  absl::Status process(mlir::Value value, int64_t dim) {
    if (auto result = llvm::dyn_cast<mlir::OpResult>(value)) {
      mlir::Operation *op = result.getOwner();
      if (auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(op)) {
        auto dimExpr = llvm::dyn_cast<mlir::AffineDimExpr>(
            linalg.getIndexingMapMatchingResult(result).getResult(dim));
        if (!dimExpr)
          return absl::InvalidArgumentError(absl::StrCat(
              nameOf(op), " indexes the dimension by an expression"));
        GEVO_RETURN_IF_ERROR(addLoop(linalg, dimExpr.getPosition()));
      } else if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(op)) {
        GEVO_RETURN_IF_ERROR(tieLoop(loop, result.getResultNumber(), dim));
      } else if (!llvm::isa<mlir::tensor::EmptyOp>(op) &&
                 !(llvm::isa<mlir::arith::ConstantOp>(op) &&
                   llvm::isa<mlir::DenseElementsAttr>(
                       llvm::cast<mlir::arith::ConstantOp>(op).getValue()))) {
        sources.insert(value);
      }
    } else {
      auto argument = llvm::cast<mlir::BlockArgument>(value);
      mlir::Operation *parent = argument.getOwner()->getParentOp();
      if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(parent)) {
        if (argument.getArgNumber() == 0)
          return absl::InvalidArgumentError("the loop's induction variable");
        GEVO_RETURN_IF_ERROR(tieLoop(loop, argument.getArgNumber() - 1, dim));
      } else {
        sources.insert(value);
      }
    }
    for (mlir::OpOperand &use : value.getUses())
      GEVO_RETURN_IF_ERROR(addUse(use, dim));
    return absl::OkStatus();
  }

  llvm::SmallVector<std::pair<mlir::Value, int64_t>> worklist;
};

mlir::RankedTensorType narrowed(mlir::Type type, const DimSet &dims,
                                int64_t count) {
  auto tensor = llvm::cast<mlir::RankedTensorType>(type);
  llvm::SmallVector<int64_t> shape(tensor.getShape());
  for (int64_t dim : dims)
    shape[dim] = count;
  return mlir::RankedTensorType::get(shape, tensor.getElementType());
}

/// A copy of an empty or a fill of one, narrowed, built at the builder.
mlir::Value cloneNarrowed(mlir::OpBuilder &builder, mlir::Value value,
                          const DimSet &dims, int64_t count) {
  mlir::Operation *op = value.getDefiningOp();
  mlir::RankedTensorType type = narrowed(value.getType(), dims, count);
  if (auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(op)) {
    mlir::Value init =
        cloneNarrowed(builder, fill.getOutputs()[0], dims, count);
    return mlir::linalg::FillOp::create(builder, op->getLoc(),
                                        fill.getInputs()[0], init)
        .getResult(0);
  }
  return mlir::tensor::EmptyOp::create(builder, op->getLoc(), type.getShape(),
                                       type.getElementType());
}

/// Erases an empty/fill chain that nothing uses any more.
void eraseIfDead(mlir::Operation *op) {
  while (op && op->use_empty()) {
    mlir::Operation *next = nullptr;
    if (auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(op))
      next = fill.getOutputs()[0].getDefiningOp();
    op->erase();
    op = next;
  }
}

absl::Status checkSelection(const Selection &keep, int64_t size) {
  int64_t count = keep.count();
  if (count < 1 || count >= size)
    return absl::InvalidArgumentError(absl::StrCat(
        "keep ", toString(keep), " keeps ", count, " of ", size,
        " indices; a shrink keeps at least one and drops at least one"));
  if (keep.at(count - 1) >= size || keep.at(0) < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("keep ", toString(keep), " reaches past the dimension's ",
                     size, " indices"));
  return absl::OkStatus();
}

/// Whether one of `loops` of `op` is a convolution's (or pooling's) channel
/// loop, by the roles MLIR infers from its indexing maps.
bool carriesChannels(mlir::Operation *op,
                     const llvm::SmallSetVector<unsigned, 2> &loops) {
  auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(op);
  if (!linalg)
    return false;
  llvm::FailureOr<mlir::linalg::ConvolutionDimensions> dims =
      mlir::linalg::inferConvolutionDims(linalg);
  if (mlir::failed(dims))
    return false;
  return llvm::any_of(loops, [&](unsigned loop) {
    return llvm::is_contained(dims->outputChannel, loop) ||
           llvm::is_contained(dims->inputChannel, loop) ||
           llvm::is_contained(dims->depth, loop);
  });
}

} // namespace

absl::StatusOr<ShrinkWeb> analyzeShrink(mlir::Value value, int dim) {
  Web web;
  GEVO_RETURN_IF_ERROR(web.grow(value, dim));
  ShrinkWeb out;
  out.size = web.size;
  out.values = static_cast<int>(web.values.size() + web.splitUses.size());
  out.ops = static_cast<int>(web.loops.size());
  out.allowsIndexList = web.sources.empty() && web.indexReads.empty();
  std::vector<double> weight(web.size, 0.0);
  for (auto &[v, dims] : web.values)
    if (auto constant = v.getDefiningOp<mlir::arith::ConstantOp>()) {
      addWeights(llvm::cast<mlir::DenseElementsAttr>(constant.getValue()), dims,
                 weight);
      ++out.constants;
    }
  if (out.constants > 0)
    out.weight = std::move(weight);
  for (auto &[op, loops] : web.loops)
    out.channels = out.channels || carriesChannels(op, loops);
  for (mlir::Value source : web.sources) {
    mlir::Value root = source;
    if (auto slice = source.getDefiningOp<mlir::tensor::ExtractSliceOp>())
      root = slice.getSource();
    auto argument = llvm::dyn_cast<mlir::BlockArgument>(root);
    if (!argument ||
        !llvm::isa<mlir::func::FuncOp>(argument.getOwner()->getParentOp()))
      continue;
    for (int64_t d : web.values[source])
      out.arguments.push_back({static_cast<int>(argument.getArgNumber()), d});
  }
  return out;
}

absl::Status applyShrink(mlir::Value value, int dim, const Selection &keep) {
  Web web;
  GEVO_RETURN_IF_ERROR(web.grow(value, dim));
  GEVO_RETURN_IF_ERROR(checkSelection(keep, web.size));
  bool isRange = keep.indices.empty();
  if (!isRange && !(web.sources.empty() && web.indexReads.empty()))
    return absl::InvalidArgumentError(
        "a list of kept indices needs every narrowed value computed in the "
        "function (no argument or slice to cut, no linalg.index to remap)");
  int64_t count = keep.count();
  mlir::MLIRContext *context = value.getContext();
  mlir::OpBuilder builder(context);

  // Values from outside the web keep their type and get sliced.
  for (mlir::Value source : web.sources) {
    const DimSet &dims = web.values[source];
    auto type = llvm::cast<mlir::RankedTensorType>(source.getType());
    llvm::SmallVector<int64_t> offsets(type.getRank(), 0),
        strides(type.getRank(), 1);
    llvm::SmallVector<int64_t> sizes(type.getShape());
    for (int64_t d : dims) {
      offsets[d] = keep.start;
      sizes[d] = count;
      strides[d] = keep.step;
    }
    if (auto result = llvm::dyn_cast<mlir::OpResult>(source))
      builder.setInsertionPointAfter(result.getOwner());
    else
      builder.setInsertionPointToStart(
          llvm::cast<mlir::BlockArgument>(source).getOwner());
    auto slice = mlir::tensor::ExtractSliceOp::create(
        builder, source.getLoc(), narrowed(type, dims, count), source,
        mlir::ValueRange{}, mlir::ValueRange{}, mlir::ValueRange{},
        builder.getDenseI64ArrayAttr(offsets),
        builder.getDenseI64ArrayAttr(sizes),
        builder.getDenseI64ArrayAttr(strides));
    source.replaceAllUsesExcept(slice.getResult(), slice);
  }

  // Re-type everything else in the web; constants are sliced.
  for (auto &[v, dims] : web.values) {
    if (web.sources.contains(v))
      continue;
    mlir::RankedTensorType type = narrowed(v.getType(), dims, count);
    if (auto constant = v.getDefiningOp<mlir::arith::ConstantOp>())
      constant.setValueAttr(
          gather(llvm::cast<mlir::DenseElementsAttr>(constant.getValue()), type,
                 dims, keep));
    v.setType(type);
  }

  // Each empty or fill that a narrowed op reads gets a narrowed copy.
  for (auto &[operand, dims] : web.splitUses) {
    mlir::Operation *original = operand->get().getDefiningOp();
    builder.setInsertionPointAfter(original);
    operand->set(cloneNarrowed(builder, operand->get(), dims, count));
    eraseIfDead(original);
  }

  // linalg.index of a narrowed loop counts kept positions; map them back.
  for (mlir::linalg::IndexOp index : web.indexReads) {
    if (keep.start == 0 && keep.step == 1)
      continue;
    builder.setInsertionPointAfter(index);
    mlir::Location loc = index.getLoc();
    auto step = mlir::arith::ConstantIndexOp::create(builder, loc, keep.step);
    auto start = mlir::arith::ConstantIndexOp::create(builder, loc, keep.start);
    auto scaled = mlir::arith::MulIOp::create(builder, loc, index, step);
    auto mapped = mlir::arith::AddIOp::create(builder, loc, scaled, start);
    index.getResult().replaceAllUsesExcept(mapped.getResult(),
                                           scaled.getOperation());
  }
  return absl::OkStatus();
}

} // namespace gevo
